/*
 * The codes admission answers with. The features' own code tables (their errors.ts, which the
 * OpenAPI document lists per route) carry the same strings.
 */
export const AccessCodes = {
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  SCOPE_FORBIDDEN: 'SCOPE_FORBIDDEN',
  ORIGIN_FORBIDDEN: 'ORIGIN_FORBIDDEN',
  ROLE_FORBIDDEN: 'ROLE_FORBIDDEN',
  UNIT_FORBIDDEN: 'UNIT_FORBIDDEN',
  CLERK_SIGN_IN_REQUIRED: 'CLERK_SIGN_IN_REQUIRED',
} as const
