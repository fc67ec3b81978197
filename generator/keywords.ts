/** Annotations the project adds to JSON Schema; declared so strict meta-validation (load) and Ajv's code generation (emit) accept them. */
export const PROJECT_KEYWORDS = ['x-collection', 'x-index', 'x-embed', 'x-unis-name', 'tsType'] as const;
