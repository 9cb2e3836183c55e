/**
 * Referral ids have one home, pipeline/core/referral.ts: the server signs and checks them on receipt,
 * and the pipeline's moderation checks them again with the same rule.
 */
export { REFERRAL_VALID_DAYS, signReferral, verifyReferral } from '../../pipeline/core/referral.ts';
