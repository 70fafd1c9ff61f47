import type { CredentialsSheetBody } from '@portal/shared';

/**
 * The address printed and shown with login details: staff sign in on this portal's login page,
 * patients at PUBLIC_URL itself (their own app is served there).
 */
export function loginAddress(kind: CredentialsSheetBody['kind'], publicUrl: string): string {
  return kind === 'patient' ? publicUrl : `${publicUrl}/login`;
}
