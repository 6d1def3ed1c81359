-- What an edition's figures count (issue 24): whether `submissions` are the papers submitted or
-- only those reviewed (after withdrawals and desk rejections), and whether `accepted` is the
-- main conference alone, with its Findings, or every track. A JSON object, or NULL: not said.

ALTER TABLE editions ADD COLUMN counts TEXT;
