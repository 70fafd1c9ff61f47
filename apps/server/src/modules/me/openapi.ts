import { PATIENT_API_TAG } from './routes.js';

/** The OpenAPI tag of the patient API, with how a patient app uses it (registered in app.ts). */
export const patientApiTag = {
  name: PATIENT_API_TAG,
  description: [
    "The patient app's API: a study patient reads the own record and orders sampling kits.",
    '1. **Sign in** with the login and password printed on the credential sheet: ' +
      '`POST /api/auth/login/patient` `{login, password}` answers `{access_token, user}` ' +
      '(`user.role` `patient`) and sets the rotating refresh cookie. Wrong credentials, a staff ' +
      'login and a deleted patient all answer 401 `invalid_credentials`; repeated failures 429 ' +
      '`too_many_attempts` with `retry_after`.',
    '2. **Change the printed password first**: until then every `/api/me/*` call answers 403 ' +
      '`password_change_required`. `PUT /api/change_password` `{oldPassword, newPassword, ' +
      'passwordConfirm}` answers a new `access_token` (earlier sessions end).',
    '3. **Call** with `Authorization: Bearer <access_token>`. The access token lives 15 minutes: ' +
      'on 401 `{"error":"Expired Token"}` call `POST /api/auth/refresh` (with the cookie) once ' +
      'and retry; any other 401 means signing in again. `POST /api/auth/logout` ends every ' +
      'session of the patient.',
    'A patient token reaches only `/api/me/*` and the auth calls (every staff endpoint answers ' +
      '403); staff tokens get 403 here. Nothing of another patient is reachable: there is no ' +
      'patient id to name.',
  ].join('\n\n'),
};
