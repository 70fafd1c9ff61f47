// hl7-standard ships no types; the tests use it only to read ACKs back (an independent reader).
declare module 'hl7-standard' {
  export default class HL7 {
    constructor(raw: string, options?: { lineEndings?: string });
    transform(callback?: (error: unknown) => void): void;
    get(field: string, index?: number): string | Record<string, string> | undefined;
  }
}
