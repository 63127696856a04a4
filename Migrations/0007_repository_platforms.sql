-- The platforms a repository's app builds for, from its latest branch audit (the union of the
-- platforms of the Xcode targets and packages that build its UI files; platform names as
-- AuditModel's Platform spells them). NULL: not known (not audited since this migration, or no
-- project says). The readiness pages show a label's platform caveat only for apps it concerns.
-- Never edit this file after it lands: add a new numbered migration instead.

ALTER TABLE repositories ADD COLUMN platforms text[];
