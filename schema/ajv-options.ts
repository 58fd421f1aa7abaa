// Ajv's options for the config schema, in one place: schema/build.ts compiles the shipped validator with them and
// the tests compare against a fresh compile with the same ones.

export const AJV_OPTIONS = { allErrors: true, strict: false, allowUnionTypes: true } as const;
