-- The names people use for a paper that it never gives itself (AlexNet for "ImageNet
-- Classification with Deep Convolutional Neural Networks"), as a JSON list: a curator's
-- (/curate paper edit aliases:…, audited and undoable like any edit), or a bundled one whose
-- source uses the name. Search indexes them as it indexes the names a paper gives itself.

ALTER TABLE papers ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
