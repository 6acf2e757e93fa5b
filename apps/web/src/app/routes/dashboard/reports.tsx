export { ReportsQueue as Component } from '../../../features/moderation/components/reports-queue.tsx';
