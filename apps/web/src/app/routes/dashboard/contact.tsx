export { ContactPage as Component } from '../../../features/dashboard/components/contact-page.tsx';
