export { Mailbox as Component } from '../../../features/mail/components/mailbox.tsx';
