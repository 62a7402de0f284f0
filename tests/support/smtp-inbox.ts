import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the inbox took: its envelope's recipients and the message as sent. */
export interface Delivery {
  to: string[];
  raw: string;
}

export interface SmtpInbox {
  /** SMTP_URL for the app, with the user and password when the inbox asks for them. */
  url: string;
  /** Every message taken, oldest first. */
  deliveries: Delivery[];
  close(): Promise<void>;
}

export interface SmtpInboxOptions {
  /** Asks for this password (user `voxline`, PLAIN or LOGIN over plain TCP): none asked by default. */
  password?: string;
  /** Mailboxes refused at RCPT TO with 550, as an inbox that is away answers. */
  refuse?: (address: string) => boolean;
}

/** A real SMTP server on a free local port, keeping what it is sent: the tests' mail provider. */
export async function startSmtpInbox({ password, refuse = () => false }: SmtpInboxOptions = {}): Promise<SmtpInbox> {
  const deliveries: Delivery[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    ...(password === undefined
      ? { authOptional: true }
      : {
          authMethods: ['PLAIN', 'LOGIN'],
          allowInsecureAuth: true,
          onAuth: (auth, _session, callback) => callback(auth.password === password ? null : new Error('bad password'), { user: auth.username }),
        }),
    onRcptTo(address, _session, callback) {
      callback(refuse(address.address) ? Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        deliveries.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  const credentials = password === undefined ? '' : `voxline:${password}@`;
  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    deliveries,
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read a message's body and links. */
export function decodeQuotedPrintable(raw: string) {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
