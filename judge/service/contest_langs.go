package service

import "github.com/optjudge/optjudge/judge"

// offeredLanguages are the languages the server offers: its table's.
func (s *Server) offeredLanguages() []judge.Language {
	return s.cfg.Languages.List
}
