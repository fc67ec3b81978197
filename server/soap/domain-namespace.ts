import type { XmlNode } from '../../generated/soap/runtime.js';

/**
 * XMC Cat's domain namespace. Its published WSDL types catalogPropertyAdd and
 * catalogPropertyUpdate (and their contents) in it, so a client generated from that WSDL sends
 * them there; topocat defines them in its types namespace (docs/catalog-interface.md).
 */
export const XMCCAT_DOMAIN_NAMESPACE = 'http://www.cs.indiana.edu/dde/namespaces/2008/02/catalog/domain';

/**
 * The body element with every element of XMC Cat's domain namespace read as one of `types`
 * (the same tree when there is none, which the caller can tell from the request text).
 */
export function domainAsTypes(node: XmlNode, types: string): XmlNode {
  const children = node.children.map((child) => domainAsTypes(child, types));
  const changed = node.namespace === XMCCAT_DOMAIN_NAMESPACE || children.some((child, i) => child !== node.children[i]);
  if (!changed) return node;
  return { ...node, namespace: node.namespace === XMCCAT_DOMAIN_NAMESPACE ? types : node.namespace, children };
}
