import { hasDutch, translate, type UiText } from './kratos-messages';

/** A provider message in Dutch; one the portal has no Dutch for stays as sent, marked as English (WCAG 3.1.2). */
export function ProviderText({ message, field }: { message: UiText; field?: string }) {
  const text = translate(message, field);
  return hasDutch(message, field) ? text : <span lang="en">{text}</span>;
}

/** The same for a list that takes texts, such as the error summary: the text, and its language when not Dutch. */
export const providerText = (message: UiText, field?: string) =>
  hasDutch(message, field) ? translate(message, field) : { text: message.text, lang: 'en' };
