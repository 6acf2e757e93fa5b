export { AllClassesTable as Component } from '../../../features/admin/components/all-classes-table.tsx';
