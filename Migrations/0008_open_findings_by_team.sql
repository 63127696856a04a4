-- A team's open findings, wherever they are (its repositories, and files CODEOWNERS gives it in
-- others'), read for the team's CSV and JSON exports: without this index each team's export
-- read every open finding of the organisation.
-- Never edit this file after it lands: add a new numbered migration instead.

CREATE INDEX findings_open_by_team ON findings (team_id) WHERE fixed_in_run IS NULL;
