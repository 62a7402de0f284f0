/**
 * The settings production refuses to start without, for tests of production behaviour: an https
 * address, a random key, an SMTP server (never reached: these tests send no mail or inject a
 * mailer), and the staging allowances for the built-in providers, which tests use everywhere.
 */
export const productionEnv: Record<string, string> = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://voxline.example',
  // openssl rand -base64 32
  AUTH_SECRET: '0op1OwngXMtjfOPhs5uyNcc6tkVJMQ4uufSUynA2sMQ=',
  SMTP_URL: 'smtp://127.0.0.1:1',
  UNSAFE_ALLOW_SANDBOX_PAYMENTS: 'true',
  UNSAFE_ALLOW_LOCAL_TELEPHONY: 'true',
};
