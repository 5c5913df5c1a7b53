import { usePortalConfig } from '../api/portal-config';

/** Said where the installation sets neither FEEDBACK_EMAIL nor SUPPORT_EMAIL: someone to turn to all the same. */
export const NO_FEEDBACK_ADDRESS = 'Neem contact op met de beheerder van je organisatie.';

/**
 * The sidebar's 'Voor feedback en foutmeldingen': the feedback address (FEEDBACK_EMAIL), else the support address
 * (SUPPORT_EMAIL), else whom to turn to without one. Nothing until the configuration has answered, so that the
 * text does not change under the person's eyes.
 */
export function FeedbackContact() {
  const config = usePortalConfig();
  if (config.isPending) return null;
  const address = config.data?.feedbackEmail || config.data?.supportEmail;
  return (
    <section aria-labelledby="dvp-feedback">
      <h2 id="dvp-feedback" className="utrecht-heading-3">
        Voor feedback en foutmeldingen
      </h2>
      {address ? (
        <a className="utrecht-link" href={`mailto:${address}`}>
          {address}
        </a>
      ) : (
        <p className="utrecht-paragraph">{NO_FEEDBACK_ADDRESS}</p>
      )}
    </section>
  );
}
