export { PaymentHistory as Component } from '../../../features/payments/components/payment-history.tsx';
