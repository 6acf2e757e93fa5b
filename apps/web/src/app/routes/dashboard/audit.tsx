export { AuditLog as Component } from '../../../features/audit/components/audit-log.tsx';
