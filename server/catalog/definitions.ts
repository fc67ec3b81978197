import { readFile } from 'node:fs/promises';
import type { CatalogStatusType, MetadataDefinitionType, MetadataElementDefType, MetadataPropertyDefType } from '../../generated/soap/types.js';
import { numberValue, timeValue } from '../storage/catalog/values.js';

/**
 * Property definitions: the concepts a deployment describes its objects with, loaded from a JSON
 * file at start (CATALOG_DEFINITIONS_FILE) and answered by queryPropertyDefinitions. With
 * CATALOG_ENFORCE_DEFINITIONS, added and updated properties must follow them.
 *
 * The file (see server/catalog/definitions.example.json):
 *
 *   { "categories": [ { "id"?, "name", "properties": [ PROPERTY… ] } ] }
 *   PROPERTY = { "id"?, "name", "source", "description"?, "shortDescription"?,
 *                "elements"?: [ { "id"?, "name", "source"?, "type", "description"?, "shortDescription"? } ],
 *                "properties"?: [ PROPERTY… ] }      (sub-properties)
 *
 * An element's source defaults to its property's. `type` is one of the names of ELEMENT_TYPES.
 * Ids default to the position in the file (categories, properties and elements are each
 * numbered 1, 2, … in document order).
 */

/** Element types and their elementType codes (a topocat convention, wsdl/catalog-types.xsd). */
export const ELEMENT_TYPES = { string: 1, integer: 2, float: 3, dateTime: 4, time: 5, point: 6, polygon: 7 } as const;
export type ElementTypeName = keyof typeof ELEMENT_TYPES;

export interface ElementDefinition {
  readonly id: number;
  readonly name: string;
  readonly source: string;
  readonly type: ElementTypeName;
  readonly description: string;
  readonly shortDescription: string;
}

export interface PropertyDefinition {
  readonly id: number;
  readonly name: string;
  readonly source: string;
  readonly description: string;
  readonly shortDescription: string;
  readonly elements: readonly ElementDefinition[];
  readonly properties: readonly PropertyDefinition[];
}

export interface CategoryDefinition {
  readonly id: number;
  readonly name: string;
  readonly properties: readonly PropertyDefinition[];
}

export class DefinitionsError extends Error {
  constructor(file: string, pointer: string, problem: string) {
    super(`${file}#${pointer}: ${problem}`);
    this.name = 'DefinitionsError';
  }
}

const key = (name: string, source: string): string => JSON.stringify([name, source]);

export class Definitions {
  private readonly topLevel = new Map<string, PropertyDefinition>();

  constructor(readonly categories: readonly CategoryDefinition[]) {
    for (const category of categories) for (const property of category.properties) this.topLevel.set(key(property.name, property.source), property);
  }

  static none(): Definitions {
    return new Definitions([]);
  }

  get propertyCount(): number {
    return this.topLevel.size;
  }

  /** The definition of a top-level property, or of a sub-property of `parent`. */
  property(name: string, source: string, parent?: PropertyDefinition): PropertyDefinition | undefined {
    if (!parent) return this.topLevel.get(key(name, source));
    return parent.properties.find((p) => p.name === name && p.source === source);
  }

  /** queryPropertyDefinitions' answer; null (sent as xsi:nil) when nothing is loaded. */
  toMetadataDefinition(): MetadataDefinitionType | null {
    if (this.categories.length === 0) return null;
    const element = (e: ElementDefinition): MetadataElementDefType => ({
      elementId: e.id,
      elementName: e.name,
      elementSource: e.source,
      elementDesc: e.description,
      elementShortDesc: e.shortDescription,
      elementType: ELEMENT_TYPES[e.type],
    });
    const property = (p: PropertyDefinition): MetadataPropertyDefType => ({
      propertyId: p.id,
      propertyName: p.name,
      propertySource: p.source,
      propertyDesc: p.description,
      propertyShortDesc: p.shortDescription,
      metadataElementDef: p.elements.map(element),
      metadataPropertyDef: p.properties.map(property),
    });
    return { metadataCategoryDef: this.categories.map((c) => ({ categoryId: c.id, categoryName: c.name, metadataPropertyDef: c.properties.map(property) })) };
  }
}

/** Read and check a definitions file; every problem names the file and a JSON pointer. */
export async function loadDefinitions(file: string): Promise<Definitions> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new DefinitionsError(file, '', error instanceof Error ? error.message : String(error));
  }
  return new DefinitionsReader(file).read(document);
}

type Json = Record<string, unknown>;

class DefinitionsReader {
  private categoryIds = 0;
  private propertyIds = 0;
  private elementIds = 0;

  constructor(private readonly file: string) {}

  read(document: unknown): Definitions {
    const root = this.object(document, '', ['categories']);
    const categories = this.array(root.categories, '/categories').map((c, i) => this.category(c, `/categories/${i}`));
    this.unique(categories.flatMap((c) => c.properties), '/categories', 'top-level property');
    return new Definitions(categories);
  }

  private category(value: unknown, pointer: string): CategoryDefinition {
    const json = this.object(value, pointer, ['id', 'name', 'properties']);
    const id = this.id(json.id, `${pointer}/id`, ++this.categoryIds);
    return { id, name: this.text(json.name, `${pointer}/name`), properties: this.array(json.properties ?? [], `${pointer}/properties`).map((p, i) => this.property(p, `${pointer}/properties/${i}`)) };
  }

  private property(value: unknown, pointer: string): PropertyDefinition {
    const json = this.object(value, pointer, ['id', 'name', 'source', 'description', 'shortDescription', 'elements', 'properties']);
    const id = this.id(json.id, `${pointer}/id`, ++this.propertyIds);
    const source = this.text(json.source, `${pointer}/source`);
    const elements = this.array(json.elements ?? [], `${pointer}/elements`).map((e, i) => this.element(e, `${pointer}/elements/${i}`, source));
    const properties = this.array(json.properties ?? [], `${pointer}/properties`).map((p, i) => this.property(p, `${pointer}/properties/${i}`));
    this.unique(elements, `${pointer}/elements`, 'element');
    this.unique(properties, `${pointer}/properties`, 'sub-property');
    return {
      id,
      name: this.text(json.name, `${pointer}/name`),
      source,
      description: this.optionalText(json.description, `${pointer}/description`),
      shortDescription: this.optionalText(json.shortDescription, `${pointer}/shortDescription`),
      elements,
      properties,
    };
  }

  private element(value: unknown, pointer: string, propertySource: string): ElementDefinition {
    const json = this.object(value, pointer, ['id', 'name', 'source', 'type', 'description', 'shortDescription']);
    const id = this.id(json.id, `${pointer}/id`, ++this.elementIds);
    const type = this.text(json.type, `${pointer}/type`);
    if (!Object.hasOwn(ELEMENT_TYPES, type)) throw new DefinitionsError(this.file, `${pointer}/type`, `must be one of ${Object.keys(ELEMENT_TYPES).join(', ')}`);
    return {
      id,
      name: this.text(json.name, `${pointer}/name`),
      source: json.source === undefined ? propertySource : this.text(json.source, `${pointer}/source`),
      type: type as ElementTypeName,
      description: this.optionalText(json.description, `${pointer}/description`),
      shortDescription: this.optionalText(json.shortDescription, `${pointer}/shortDescription`),
    };
  }

  private object(value: unknown, pointer: string, allowed: readonly string[]): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DefinitionsError(this.file, pointer, 'must be an object');
    for (const name of Object.keys(value)) if (!allowed.includes(name)) throw new DefinitionsError(this.file, `${pointer}/${name}`, `unknown member; expected ${allowed.join(', ')}`);
    return value as Json;
  }

  private array(value: unknown, pointer: string): unknown[] {
    if (!Array.isArray(value)) throw new DefinitionsError(this.file, pointer, 'must be an array');
    return value;
  }

  private text(value: unknown, pointer: string): string {
    if (typeof value !== 'string' || value === '') throw new DefinitionsError(this.file, pointer, 'must be a non-empty string');
    return value;
  }

  private optionalText(value: unknown, pointer: string): string {
    if (value === undefined) return '';
    if (typeof value !== 'string') throw new DefinitionsError(this.file, pointer, 'must be a string');
    return value;
  }

  private id(value: unknown, pointer: string, fallback: number): number {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 2_147_483_647) throw new DefinitionsError(this.file, pointer, 'must be a whole number (xsd:int)');
    return value as number;
  }

  private unique(items: readonly { name: string; source: string }[], pointer: string, what: string): void {
    const seen = new Set<string>();
    for (const item of items) {
      const k = key(item.name, item.source);
      if (seen.has(k)) throw new DefinitionsError(this.file, pointer, `${what} ${item.name} (source ${item.source}) is defined twice`);
      seen.add(k);
    }
  }
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const TIME = /^\s*([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?\s*$/;
const NUMBER_PAIR = String.raw`\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s+[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*`;
const POINT = new RegExp(`^(?:${NUMBER_PAIR}|\\s*POINT\\s*\\(${NUMBER_PAIR}\\)\\s*)$`, 'i');
const POLYGON_RING = new RegExp(`^${NUMBER_PAIR}(?:,${NUMBER_PAIR}){3,}$`);

/** Why `value` is not a value of `type`, or undefined when it is. */
export function typeProblem(type: ElementTypeName, value: string): { cause: CatalogStatusType; expected: string } | undefined {
  switch (type) {
    case 'string':
      return undefined;
    case 'integer':
      if (numberValue(value) === undefined) return { cause: 'INT_ELEMENT_CONTAINS_NONNUMERIC', expected: 'an integer' };
      return INTEGER.test(value) ? undefined : { cause: 'INT_ELEMENT_CONTAINS_FLOAT', expected: 'an integer, not a fraction' };
    case 'float':
      return numberValue(value) === undefined ? { cause: 'FLOAT_ELEMENT_CONTAINS_NONNUMERIC', expected: 'a number' } : undefined;
    case 'dateTime':
      return timeValue(value) === undefined ? { cause: 'INVALID_DATETIME_ELEMENT', expected: 'an ISO-8601 date or date-time' } : undefined;
    case 'time':
      return TIME.test(value) ? undefined : { cause: 'INVALID_TIME_ELEMENT', expected: 'a time of day, hh:mm[:ss]' };
    case 'point':
      return POINT.test(value) ? undefined : { cause: 'INVALID_POINT_ELEMENT', expected: 'a point, "x y" or POINT(x y)' };
    case 'polygon': {
      const ring = /^\s*POLYGON\s*\(\((.*)\)\)\s*$/i.exec(value)?.[1] ?? value;
      return POLYGON_RING.test(ring) ? undefined : { cause: 'INVALID_POLYGON_ELEMENT', expected: 'a polygon of at least four "x y" points, comma-separated or as POLYGON((…))' };
    }
  }
}
