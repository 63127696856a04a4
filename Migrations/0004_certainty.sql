-- A finding is a violation (the rule is sure) or needs review (a person must look). Review
-- findings are stored at note severity; the column lets reports and the dashboard show them in
-- their own section, and keeps them out of a repository's open requirements.
ALTER TABLE findings
    ADD COLUMN certainty text NOT NULL DEFAULT 'violation' CHECK (certainty IN ('violation', 'review'));
