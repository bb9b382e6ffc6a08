// Package contest is a contest as the ICPC's Contest Package format and
// Contest API (CLICS, icpc/ccs-specs 2026-01) define it, without HTTP: the
// package read from disk (Load), its clock and state (started, frozen,
// ended, thawed, finalized), the ICPC scoreboard (Compute), the awards and
// the results.tsv export. The grading service (judge/service) serves it;
// nothing here knows of submissions' storage or of users.
//
// A contest package is a directory:
//
//	contest.yaml         (or contest.json) id, name, formal_name, start_time,
//	                     duration, scoreboard_freeze_duration,
//	                     scoreboard_type (pass-fail or score), penalty_time
//	                     (minutes, or a RELTIME such as 0:20:00), medals
//	                     ({gold: 4, silver: 4, bronze: 4}: this judge's;
//	                     the format has no medal counts)
//	problems.yaml        (or .json) the problems in order: id, label, name,
//	                     ordinal, rgb, color, and the keys the spec lists
//	teams.json           (or .yaml) id, name, label, display_name,
//	                     organization_id, group_ids, hidden, ...
//	groups.json          id, name, type, ...
//	organizations.json   id, name, formal_name, country, ...
//	accounts.yaml        (or .json) id, username, password, type (team,
//	                     judge or admin), team_id: who logs in
//	awards.json          (or .yaml) id, citation, team_ids: the citation of
//	                     an award the board gives (team_ids left out), or
//	                     an award of the jury's own (its team_ids)
//	<problem id>/        the problem packages, as BAPCtools lays them out
//
// Every file but contest.yaml may be missing. Keys outside the spec are
// errors naming the file and line, but for a few that BAPCtools writes in
// contest.yaml for its own use (ignoredContestKeys).
package contest
