/**
 * What the fuzzer checks on every answer, against the operation's entry in /openapi.json: never a
 * 5xx; a documented status; a documented media type; a JSON body valid against its schema; every
 * header the document marks required. Returns the failures in words (empty: conforming).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Operation } from "./requests";
import type { Schema } from "./schema-arbitrary";

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly validators = new Map<string, ReturnType<Ajv2020["compile"]>>();
  constructor(document: { components?: object }) {
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: "https://openapi.test/document", components: document.components });
  }

  /** `operation` answered `answer` to a `method` request. */
  failures(method: string, operation: Operation, answer: Answer): string[] {
    if (answer.status >= 500) return [`${answer.status}: a server error (${answer.body.slice(0, 200)})`];
    const documented = operation.responses[String(answer.status)];
    if (!documented)
      return [
        `${answer.status} is not documented (documented: ${Object.keys(operation.responses).join(", ")}): ${answer.body.slice(0, 200)}`,
      ];
    const failures: string[] = [];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      if (header.required && !answer.headers.has(name))
        failures.push(`${answer.status} lacks the required header ${name}`);
    }
    if (method === "HEAD" || answer.status === 304 || answer.body.length === 0) return failures;
    const type = answer.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
    const media = documented.content?.[type];
    if (!media)
      return [
        ...failures,
        `${answer.status} with Content-Type ${type || "(none)"}, documented: ${Object.keys(documented.content ?? {}).join(", ") || "no body"}`,
      ];
    // A 206 body is a byte range: of the documented media type, but not a whole document of it.
    if (!/json$/.test(type) || !media.schema || answer.status === 206) return failures;
    const key = JSON.stringify(media.schema);
    const validate = this.validators.get(key) ?? this.ajv.compile(anchored(media.schema));
    this.validators.set(key, validate);
    if (!validate(JSON.parse(answer.body)))
      failures.push(
        `${answer.status} body does not match its schema: ${this.ajv.errorsText(validate.errors)}; ${answer.body.slice(0, 200)}`,
      );
    return failures;
  }
}

/** `#/components/…` references resolved in the document's schema resource. */
function anchored(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"https://openapi.test/document#/'));
}
