export { MyClasses as Component } from '../../../features/teacher/components/my-classes.tsx';
