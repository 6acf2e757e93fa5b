export { Inbox as Component } from '../../../features/messages/components/inbox.tsx';
