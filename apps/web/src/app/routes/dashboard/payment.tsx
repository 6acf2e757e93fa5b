export { PaymentPage as Component } from '../../../features/payments/components/payment-page.tsx';
