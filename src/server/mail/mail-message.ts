/** Each kind of message Voxline sends; the log names a message by it. */
export type MailTemplate = 'confirm-email' | 'change-email' | 'reset-password' | 'support-request' | 'support-acknowledgement';

/** A message as the templates write it and a mailer sends it. */
export interface MailMessage {
  /** Which message this is, for the log (which never holds the message's links). */
  template: MailTemplate;
  to: string;
  /** Where an answer goes when it is not the sender (a support request is answered to its user). */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}
