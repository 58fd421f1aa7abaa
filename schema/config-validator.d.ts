// Types of the generated schema/config-validator.js (Ajv standalone code): an Ajv validate function.
import type { ErrorObject } from "ajv";

export declare const validate: {
	(data: unknown): boolean;
	errors?: ErrorObject[] | null;
};
export default validate;
