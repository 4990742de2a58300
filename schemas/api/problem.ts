import { z } from 'zod';

/** Every error code the API answers with, its HTTP status and its fixed title (DESIGN.md §3). */
export const ERROR_CODES = {
  invalid_request: { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  credits_exhausted: { status: 402, title: 'Credits exhausted' },
  not_found: { status: 404, title: 'Not found' },
  not_covered: { status: 404, title: 'Not covered by the data' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  idempotency_key_mismatch: { status: 422, title: 'Idempotency key reused' },
  request_header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  rate_limited: { status: 429, title: 'Rate limited' },
  internal: { status: 500, title: 'Internal error' },
  data_unavailable: { status: 503, title: 'Data unavailable' },
  ledger_unavailable: { status: 503, title: 'Ledger unavailable' },
  rate_limit_unavailable: { status: 503, title: 'Rate limiter unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** `type` URI of a problem: a stable identifier per code, documented in docs/api.md. */
export const problemType = (code: ErrorCode): string => `https://property-intelligence.example/problems/${code.replaceAll('_', '-')}`;

export const FieldErrorSchema = z.object({
  path: z.string().meta({ description: 'Where the bad value is: `query.limit`, `body.bedrooms`, `params.uprn`.' }),
  message: z.string(),
});

/** RFC 9457 problem details, sent as application/problem+json. */
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    request_id: z.string(),
    errors: z.array(FieldErrorSchema).optional().meta({ description: 'Every bad field (invalid_request only).' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details.' });

export type Problem = z.infer<typeof ProblemSchema>;
export type FieldError = z.infer<typeof FieldErrorSchema>;
