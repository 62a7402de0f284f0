import type { MailMessage, MailTemplate } from './mail-message';
import { escapeHtml } from '../http/escape-html';

function message(template: MailTemplate, to: string, subject: string, lines: string[], link: { url: string; label: string }): MailMessage {
  const text = [...lines, '', `${link.label}: ${link.url}`, '', 'If you did not ask for this, you can ignore this email.', '', 'Voxline'].join('\n');
  const html = [
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    '<p>If you did not ask for this, you can ignore this email.</p>',
    '<p>Voxline</p>',
  ].join('\n');
  return { template, to, subject, text, html };
}

export function confirmEmailMessage(to: string, name: string, url: string): MailMessage {
  return message('confirm-email', to, 'Confirm your Voxline email address', [`Hello ${name},`, 'Please confirm your email address for your Voxline account.'], {
    url,
    label: 'Confirm your email address',
  });
}

export function changeEmailMessage(to: string, name: string, url: string): MailMessage {
  return message('change-email', to, 'Confirm your new Voxline email address', [`Hello ${name},`, 'You asked to use this address for your Voxline account. It takes effect once you confirm it.'], {
    url,
    label: 'Confirm your new email address',
  });
}

export function resetPasswordMessage(to: string, name: string, url: string): MailMessage {
  return message('reset-password', to, 'Reset your Voxline password', [`Hello ${name},`, 'Someone asked to reset the password of your Voxline account. The link works once and expires in one hour.'], {
    url,
    label: 'Set a new password',
  });
}
