export { AddClassPage as Component } from '../../../features/teacher/components/add-class-page.tsx';
