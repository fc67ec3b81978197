import type { Representation } from './contract/representation.js';

/**
 * The newest representations that reads asked for, in memory. In a process that is the only
 * writer of its database (SQLite without `--workers`) every change to `resource_current` goes
 * through this process's ResourceStore, which replaces an entry with the new version (or
 * forgets a deleted one) before the write is acknowledged, so a read never answers older than a
 * write it follows. Where other processes write too (`--workers` on one SQLite file), the cache
 * is given `commits`, a mark that moves whenever anyone commits (KeyReader.commits): each read
 * that finds its entry asks it before answering and, when it moved, drops every entry, so a
 * write acknowledged by another process before the read began is never answered late. A read
 * that finds nothing asks nothing: it reads the database, as one process would. A read-mostly
 * load keeps its entries; each write anywhere empties the caches of all processes. On
 * PostgreSQL, with no such mark as cheap, `commits` is the read lease's (ReadLease.held): it
 * answers only while no other process writes, and moves with each new hold.
 *
 * Why: a GET of one node of 100,000 spent about 30–40 µs of its 157 µs of CPU in the SQLite
 * lookup on the bench's machine (the same lookup takes 7 µs when repeated at once: between
 * requests the b-tree pages and SQLite's code leave the CPU's caches). A hit here is a Map read.
 *
 * Least recently used entries go first once the documents' characters pass the budget.
 */
export class CurrentCache {
  private readonly entries = new Map<string, Representation>();
  private characters = 0;
  /** Writes done so far (puts and forgets, and each write's start and end): a read that saw a write happen meanwhile keeps nothing. */
  writes = 0;
  /** Writes of this process under way (see writing). */
  private underWay = 0;

  /**
   * What `commits` said when the cache was made or a hit was last answered (undefined: it failed). Every
   * entry then was current, and an entry kept since was read after it (or written here): while
   * the mark stands still, nobody committed since, and every entry is still current.
   */
  private seen: number | string | undefined;

  /**
   * @param commits with other writing processes: see above.
   * @param mayKeep false when what the read under way found may not be kept (Standbys.fromToken).
   */
  constructor(
    private readonly budget: number,
    private readonly commits?: () => number | string,
    private readonly mayKeep?: () => boolean,
  ) {
    // Every entry is read after this.
    if (commits) this.seen = this.ask();
  }

  get(kind: string, id: string): Representation | undefined {
    const key = keyOf(kind, id);
    const hit = this.entries.get(key);
    // A miss asks nothing: the read that follows goes to the database, which has every commit.
    if (!hit || !this.unmoved()) return undefined;
    // Most recently used last: the Map iterates in insertion order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /**
   * The mark, or undefined when it cannot be read. Asked on the hot read's path, before any
   * error handling: a failed ask answers nothing from memory, and the full path meets the
   * failure and reports it.
   */
  private ask(): number | string | undefined {
    try {
      return this.commits?.();
    } catch {
      return undefined;
    }
  }

  /**
   * Before a write of this process (Commits.committed, which every write of the resource store
   * and the measurement store runs through): reads under way keep nothing, and `mark` gives none
   * until the returned function is called, once the write has committed or failed.
   */
  writing(): () => void {
    this.writes++;
    this.underWay++;
    return () => {
      this.underWay--;
      this.writes++;
    };
  }

  /**
   * A mark that stands still while nothing was committed since it was given: no write of this
   * process began since, and, with `commits`, nobody else committed (the read lease still held
   * without a break); an outside write (dropAll) moves it too. Undefined while it cannot tell: a
   * write of this process under way, or `commits` unreadable (the lease not held). What
   * ListPositions keeps positions under where the key reader has no commit mark (PostgreSQL).
   */
  mark(): string | undefined {
    if (this.underWay > 0) return undefined;
    // Where it moved, everything kept was dropped (writes moved too): the new mark says so.
    this.unmoved();
    if (this.commits && this.seen === undefined) return undefined;
    return `${String(this.seen)}/${this.writes}`;
  }

  /**
   * Whether `commits` (where there is one) still says what it said when `seen` was set. When it
   * moved, or cannot be read, everything kept is dropped and `seen` is what it says now.
   */
  private unmoved(): boolean {
    if (!this.commits) return true;
    const commits = this.ask();
    if (commits !== undefined && commits === this.seen) return true;
    this.seen = commits;
    this.dropAll();
    return false;
  }

  /** What a read found, unless writes were done since `writes` (it may be older than theirs). */
  remember(kind: string, representation: Representation, writes: number): void {
    if (writes === this.writes && (this.mayKeep?.() ?? true)) this.store(kind, representation);
  }

  /**
   * What a write stored, once it is acknowledged: it replaces the entry of a resource that reads
   * asked for; others stay out (a load of 100,000 nodes would otherwise fill the memory with
   * representations nobody read).
   */
  put(kind: string, representation: Representation): void {
    this.writes++;
    if (this.entries.has(keyOf(kind, representation.id))) this.store(kind, representation);
  }

  forget(kind: string, id: string): void {
    this.writes++;
    this.drop(keyOf(kind, id));
  }

  /** Drops everything, and stops reads under way from keeping theirs (another process wrote: storage/outside-writes.ts). */
  dropAll(): void {
    this.writes++;
    this.entries.clear();
    this.characters = 0;
  }

  private store(kind: string, representation: Representation): void {
    const key = keyOf(kind, representation.id);
    this.drop(key);
    const size = sizeOf(representation);
    if (size > this.budget) return;
    this.entries.set(key, representation);
    this.characters += size;
    for (const [oldest, entry] of this.entries) {
      if (this.characters <= this.budget) break;
      this.entries.delete(oldest);
      this.characters -= sizeOf(entry);
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.characters -= sizeOf(old);
  }
}

const keyOf = (kind: string, id: string): string => `${kind}\u0000${id}`;

/** What an entry holds, in characters: its document and id, and a little for the entry itself. */
const sizeOf = (representation: Representation): number => representation.doc.length + representation.id.length + 64;
