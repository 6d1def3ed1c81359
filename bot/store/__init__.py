"""The only place with SQL: the database, its migrations, and one repository per aggregate."""
