import { z } from 'zod';

// The server's CSP forbids eval; without this zod probes `new Function` and the browser reports a
// CSP violation on every start. The interpreted parser is fast enough for forms.
z.config({ jitless: true });
