import type { Drawn, Resource } from './topology.js';

/** A microsecond `ts` as a readable UTC time. */
export const when = (ts: number): string => new Date(Math.floor(ts / 1000)).toISOString().replace('T', ' ').replace('Z', ' UTC');

/**
 * The side panel: the selected element's representation, the paths through it, and its history
 * (`GET /<collection>/<id>?id=<id>`: every stored version, newest first); a version shows its
 * representation when clicked.
 */
export class Details {
  private shown = 0;

  constructor(
    private readonly panel: HTMLElement,
    private readonly readHistory: (collection: Drawn, id: string) => Promise<Resource[]>,
    private readonly onError: (error: unknown) => void,
  ) {}

  clear(): void {
    this.shown++;
    this.panel.replaceChildren(paragraph('Select a node, port or link to see its representation, its history and the paths through it.', 'hint'));
  }

  /** The shown element was deleted: say so, keep its history reachable. */
  gone(element: string): void {
    this.panel.querySelector('.representation')?.replaceChildren(`${element} was deleted; its versions stay stored (history below).`);
  }

  async show(collection: Drawn, resource: Resource, paths: readonly Resource[]): Promise<void> {
    const turn = ++this.shown;
    const heading = document.createElement('h2');
    heading.textContent = `${collection.replace(/s$/, '')} ${resource.name ?? resource.id}`;
    const representation = document.createElement('pre');
    representation.className = 'representation';
    representation.textContent = JSON.stringify(resource, null, 2);
    const pathList = list(paths.map((path) => path.name ?? path.id), 'paths');
    const history = document.createElement('ol');
    history.className = 'history';
    history.append(item('loading…'));
    this.panel.replaceChildren(heading, subheading('Paths through it'), paths.length > 0 ? pathList : paragraph('none', 'hint'), subheading('Representation'), representation, subheading('History (newest first)'), history);

    try {
      const versions = await this.readHistory(collection, resource.id);
      if (turn !== this.shown) return;
      history.replaceChildren(
        ...versions.map((version, index) => {
          const entry = document.createElement('li');
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = `${when(version.ts)}${index === 0 ? ' (newest)' : ''}`;
          button.dataset.ts = String(version.ts);
          button.addEventListener('click', () => {
            representation.textContent = JSON.stringify(version, null, 2);
            for (const other of history.querySelectorAll('button')) other.classList.toggle('current', other === button);
          });
          entry.append(button);
          return entry;
        }),
      );
    } catch (error) {
      if (turn !== this.shown) return;
      history.replaceChildren(item('the history could not be read'));
      this.onError(error);
    }
  }
}

function paragraph(text: string, className: string): HTMLParagraphElement {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}

function subheading(text: string): HTMLHeadingElement {
  const h = document.createElement('h3');
  h.textContent = text;
  return h;
}

function item(text: string): HTMLLIElement {
  const li = document.createElement('li');
  li.textContent = text;
  return li;
}

function list(texts: readonly string[], className: string): HTMLUListElement {
  const ul = document.createElement('ul');
  ul.className = className;
  ul.append(...texts.map(item));
  return ul;
}
