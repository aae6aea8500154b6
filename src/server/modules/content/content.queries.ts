/** Writes of the content module that are not content itself: form submissions. */
import type { Db } from '../../db/client.ts'
import { formSubmissions } from './content.tables.ts'

/** Keeps a content form's submission (the site contact is told separately). */
export async function saveFormSubmission(
  db: Db,
  submission: { siteId: number; formId: string; data: Record<string, string> },
): Promise<void> {
  await db.insert(formSubmissions).values(submission)
}
