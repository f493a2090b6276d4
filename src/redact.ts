// The API key must never appear in any output. Everything that leaves the process passes here.
const secrets = new Set<string>();

export function registerSecret(secret: string): void {
  if (secret) secrets.add(secret);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('$PETSTORE_API_KEY');
  return out;
}
