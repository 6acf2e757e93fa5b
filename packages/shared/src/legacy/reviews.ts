// Temporary alias of the old specifier @skillhive/shared/reviews; removed by the specifier rename.
export { CreateReviewResponse, Review, ReviewListQuery } from '../contracts/reviews.ts';
export { REVIEW_PAGE_SIZE_DEFAULT } from '../rules/constants.ts';
export { CreateReviewBody } from '../rules/forms.ts';
export { REVIEW_MESSAGES } from '../rules/messages.ts';
