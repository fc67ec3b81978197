import type { Model } from '../model/model.js';
import { soapOperations } from './soap.js';
import type { SdkPackage } from '../package/compile.js';
import { jsonText, type GeneratedFile } from './output.js';
import { render } from './templates.js';

interface ClientPackage extends SdkPackage {
  readonly name: string;
  readonly description: string;
  /** Runtime dependencies, taken with the project's own ranges. */
  readonly dependencies: readonly string[];
  readonly readme: string;
}

/** The SDK packages the model has: the REST client always, the SOAP client with a WSDL. */
function clientPackages(model: Model): ClientPackage[] {
  const rest: ClientPackage = {
    dir: 'client/rest',
    entry: 'client/rest.ts',
    name: '@topocat/rest-client',
    description: 'Typed client of the topocat topology REST service',
    dependencies: [],
    readme: 'client-rest-readme.md',
  };
  if (!model.soap) return [rest];
  const soap: ClientPackage = {
    dir: 'client/soap',
    entry: 'client/soap.ts',
    name: '@topocat/soap-client',
    description: `Typed client of the topocat ${model.soap.name} SOAP 1.1 service`,
    dependencies: ['saxes'],
    readme: 'client-soap-readme.md',
  };
  return [rest, soap];
}

export function sdkPackages(model: Model): SdkPackage[] {
  return clientPackages(model).map(({ dir, entry }) => ({ dir, entry }));
}

/**
 * Each client SDK as an npm package: `package.json` (ESM, `exports` with types, no dependency
 * on the server) and a README with a working example. The package phase adds `dist/`.
 */
export function emitClientPackages(model: Model): GeneratedFile[] {
  return clientPackages(model).flatMap((p) => {
    const base = `./dist/${p.entry.replace(/\.ts$/, '')}`;
    const dependencies = Object.fromEntries(p.dependencies.map((name) => [name, model.project.dependencies[name] ?? '*']));
    const manifest = {
      name: p.name,
      version: model.project.version,
      description: p.description,
      license: model.project.license,
      type: 'module',
      exports: { '.': { types: `${base}.d.ts`, default: `${base}.js` }, './package.json': './package.json' },
      types: `${base}.d.ts`,
      files: ['dist'],
      sideEffects: false,
      engines: { node: '>=18' },
      ...(p.dependencies.length > 0 ? { dependencies } : {}),
    };
    return [
      { path: `${p.dir}/package.json`, content: jsonText(manifest) },
      { path: `${p.dir}/README.md`, content: render(p.readme, { name: p.name, model, kinds: model.kinds, operations: soapOperations(model) }) },
    ];
  });
}
