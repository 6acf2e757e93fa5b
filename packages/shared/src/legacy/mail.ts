// Temporary alias of the old specifier @skillhive/shared/mail; removed by the specifier rename.
export { MailboxEntry } from '../contracts/mail.ts';
