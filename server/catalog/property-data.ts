import type { PropertyType } from '../../generated/soap/types.js';
import type { ElementInput, PropertyInput } from '../storage/catalog/rows.js';
import { typeProblem, type Definitions, type PropertyDefinition } from './definitions.js';
import { Refusal } from './status.js';

/**
 * Turn a propertyType from a request into what storage keeps, refusing what may not be kept:
 * an instance with no value, element or sub-property (NO_DATA, at any depth) and, when the
 * definitions are enforced, names and values they do not allow.
 *
 * The `value` shorthand becomes an element named like the property, so queries see one kind
 * of leaf; it stays marked so that results give it back as `value`.
 */
export function propertyInput(property: PropertyType, enforced: Definitions | undefined, parent?: PropertyDefinition): PropertyInput {
  const label = `property ${property.name} (source ${property.source})`;
  const elements = property.element ?? [];
  const subProperties = property.property ?? [];
  if (property.value === undefined && elements.length === 0 && subProperties.length === 0) {
    throw new Refusal('NO_DATA', `${label} holds no value, element or sub-property`);
  }
  let definition: PropertyDefinition | undefined;
  if (enforced) {
    definition = enforced.property(property.name, property.source, parent);
    if (!definition) throw new Refusal('PROPERTY_NOT_DEFINED', `${label} is not defined${parent ? ` as a sub-property of ${parent.name}` : ''}`);
  }
  const leaves: ElementInput[] = [];
  if (property.value !== undefined) leaves.push({ name: property.name, source: property.source, value: property.value, shorthand: true });
  for (const element of elements) leaves.push({ name: element.name, source: element.source ?? property.source, value: element.value, shorthand: false });
  if (definition) for (const leaf of leaves) checkElement(definition, leaf, label);
  return {
    name: property.name,
    source: property.source,
    elements: leaves,
    properties: subProperties.map((sub) => propertyInput(sub, enforced, definition)),
  };
}

function checkElement(definition: PropertyDefinition, leaf: ElementInput, label: string): void {
  const what = leaf.shorthand ? `the value of ${label}` : `element ${leaf.name} (source ${leaf.source}) of ${label}`;
  const element = definition.elements.find((e) => e.name === leaf.name && e.source === leaf.source);
  if (!element) throw new Refusal('ELEMENT_NOT_DEFINED', `${what} is not defined`);
  const problem = typeProblem(element.type, leaf.value);
  if (problem) throw new Refusal(problem.cause, `${what} must be ${problem.expected}, not "${leaf.value.slice(0, 64)}"`);
}
