export { MyEnrolledClasses as Component } from '../../../features/enrollments/components/my-enrolled-classes.tsx';
