import type { XmlNode } from '../../generated/soap/runtime.js';

/** Header namespaces that carry the caller's DN (docs/catalog-interface.md). */
const USERNAME_NAMESPACES = new Set([
  // XMC Cat's clients spell it without the hyphen; that is the one they send.
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wsswssecurity-secext-1.0.xsd',
  'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
]);

/** Header blocks this service processes, so a `mustUnderstand` on them is honoured. */
export function isUnderstood(header: XmlNode): boolean {
  return USERNAME_NAMESPACES.has(header.namespace) && (header.name === 'Username' || header.name === 'Security');
}

/**
 * The caller's DN: the first header block named `Username` in either namespace, or
 * `Security/UsernameToken/Username`; its text, trimmed. Undefined when absent or empty.
 */
export function callerDn(headers: readonly XmlNode[]): string | undefined {
  for (const header of headers) {
    if (!USERNAME_NAMESPACES.has(header.namespace)) continue;
    let text: string | undefined;
    if (header.name === 'Username') text = header.text;
    else if (header.name === 'Security') {
      const token = header.children.find((c) => c.name === 'UsernameToken' && USERNAME_NAMESPACES.has(c.namespace));
      text = token?.children.find((c) => c.name === 'Username' && USERNAME_NAMESPACES.has(c.namespace))?.text;
    }
    if (text !== undefined) return text.trim() === '' ? undefined : text.trim();
  }
  return undefined;
}
