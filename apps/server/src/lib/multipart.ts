import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { isSingleLine, issuesByField, onlyNotFound } from '@portal/shared';
import { invalid, notFound } from './errors.js';

/**
 * One way to read a multipart upload (ADR 011): the file parts are read as they stream in and
 * refused as soon as one passes its size limit (never buffered beyond it), and the text fields
 * are checked with a shared zod schema, like a JSON body.
 */

export interface UploadedFile {
  /** The form field it came in (`file`, `files[0]`, …). */
  field: string;
  /** The name on the user's disk, as sent; the service keeps only its last segment. */
  fileName: string;
  /** What the browser claims; the content check decides (file-type). */
  declaredType: string;
  size: number;
  content: Buffer;
}

export interface MultipartSpec<S extends z.ZodType> {
  /** The text fields, e.g. `{ref_type, ref_id, comment}`; unknown fields are ignored. */
  fields: S;
  /** Which field names may carry a file. */
  fileField: string | RegExp;
  maxFileBytes: number;
  /** At most this many files (default 1); more answers 413. */
  maxFiles?: number;
  /** At least this many files (default 1); fewer answers 422 `required`. */
  minFiles?: number;
  /** The longest text field in bytes (default 400 kB: 100,000 characters of Polish text). */
  maxFieldBytes?: number;
}

export interface MultipartUpload<T> {
  fields: T;
  files: UploadedFile[];
}

/** Room for the text fields and multipart framing on top of the files themselves. */
const FIELDS_ALLOWANCE_BYTES = 1024 * 1024;
const MAX_FIELDS = 20;

/** Registers the parser once for the whole app; limits come with each `readMultipart` call. */
export const multipartPlugin = fp(async (app: FastifyInstance) => {
  await app.register(multipart, { throwFileSizeLimit: false });
});

/**
 * Reads a multipart request: files up to `maxFileBytes` each, fields checked with the schema.
 * Answers 422 `validation_error` with `{<file field>: ['file_too_large' | 'required']}` or the
 * fields' own errors, 413 for more files or fields than allowed.
 */
export async function readMultipart<S extends z.ZodType>(
  request: FastifyRequest,
  spec: MultipartSpec<S>,
): Promise<MultipartUpload<z.output<S>>> {
  const maxFiles = spec.maxFiles ?? 1;
  const minFiles = spec.minFiles ?? 1;
  const fileKey = typeof spec.fileField === 'string' ? spec.fileField : 'files';
  const isFileField = (name: string) =>
    typeof spec.fileField === 'string' ? name === spec.fileField : spec.fileField.test(name);

  if (!request.isMultipart()) throw invalid({ [fileKey]: ['required'] });
  // A body announced larger than everything allowed is refused before a byte of it is read.
  const announced = Number(request.headers['content-length'] ?? 0);
  if (announced > maxFiles * spec.maxFileBytes + FIELDS_ALLOWANCE_BYTES)
    throw invalid({ [fileKey]: ['file_too_large'] });

  const raw: Record<string, string> = {};
  const tooLong: string[] = [];
  const files: UploadedFile[] = [];
  const parts = request.parts({
    limits: {
      fileSize: spec.maxFileBytes,
      files: maxFiles,
      fields: MAX_FIELDS,
      fieldSize: spec.maxFieldBytes ?? 400_000,
      parts: maxFiles + MAX_FIELDS,
    },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      if (part.valueTruncated) tooLong.push(part.fieldname);
      raw[part.fieldname] = String(part.value);
      continue;
    }
    if (!isFileField(part.fieldname)) {
      part.file.resume();
      throw invalid({ [part.fieldname]: ['invalid'] });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      chunks.push(chunk);
    }
    // The parser stops a file at the limit and marks it truncated: nothing beyond was kept.
    if (part.file.truncated) throw invalid({ [part.fieldname]: ['file_too_large'] });
    files.push({
      field: part.fieldname,
      fileName: part.filename,
      declaredType: part.mimetype,
      size,
      content: Buffer.concat(chunks, size),
    });
  }

  const errors: Record<string, string[]> = {};
  const parsed = spec.fields.safeParse(raw);
  if (!parsed.success) {
    // An id beyond any row's names nothing, as in a path (docs/api-conventions.md).
    if (onlyNotFound(parsed.error.issues) && tooLong.length === 0) throw notFound();
    Object.assign(errors, issuesByField(parsed.error.issues));
  }
  // A file name is single-line text like any other name (ADR 037): no line break, tab or other
  // control character (a U+0000 cannot be stored; a CR or LF would break a download's header).
  const badName = files.find((file) => !isSingleLine(file.fileName));
  if (badName) errors[badName.field] = ['single_line'];
  for (const field of tooLong) errors[field] = ['too_long'];
  if (files.length < minFiles) errors[fileKey] = ['required'];
  if (Object.keys(errors).length > 0 || !parsed.success) throw invalid(errors);
  return { fields: parsed.data, files };
}
