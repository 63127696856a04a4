-- A finding's mechanical fix: the edits `a11y-audit fix` would apply (AuditModel's Correction
-- as JSON with sorted keys), shown with the finding on the dashboard. NULL when it has none.
-- Findings stored before this migration get theirs from the next audit that sees them (the
-- history writer compares it as it compares a message). Plain text, not jsonb: jsonb rewrites
-- its input, and the writer's comparison is by exact text.
-- Never edit this file after it lands: add a new numbered migration instead.

ALTER TABLE findings ADD COLUMN correction text;
