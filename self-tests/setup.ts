// Before each self-test file. The files of a worker share their modules (isolate: false), and with
// them the keys registered for redaction: each file starts with none, as in a process of its own.
import { beforeAll } from 'vitest';
import { forgetSecrets } from '../src/wire/redact.js';

beforeAll(() => forgetSecrets());
