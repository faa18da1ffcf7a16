package gcacw

import (
	"fmt"
	"slices"
	"strings"

	"pbem/engine"
	"pbem/engine/hex"
	"pbem/events"
)

// internal is a ruleset bug found while deciding: Decide returns it as an
// error instead of a rejection.
type internal struct{ err error }

// sim decides one action: engine.Sim applies each fact as it is emitted,
// so every step sees the state the facts before it made; GCACW's rules
// are its methods.
type sim struct{ *engine.Sim[*State] }

// trial is a sim of st that only validates (prompts and HELP try orders
// on it): it emits nothing.
func trial(st *State) sim { return sim{&engine.Sim[*State]{State: st}} }

func problemAt(o Order, col int, msg, hint string) events.Problem {
	if col == 0 {
		col = o.Col
	}
	return events.Problem{Line: o.Line, Col: col, Text: o.Text, Msg: msg, Hint: hint}
}

func decide(st *State, side string, os []Order, dice engine.Dice) (d engine.Decision, err error) {
	cd := newCountDice(dice)
	defer func() {
		if r := recover(); r != nil {
			ie, ok := r.(internal)
			if !ok {
				panic(r)
			}
			d, err = engine.Decision{}, ie.err
		}
	}()
	after := st
	d, err = engine.Decide(st, cd, evolve, func(s *engine.Sim[*State]) []events.Problem {
		m := sim{s}
		probs := m.decide(side, os)
		after = m.State
		return probs
	})
	if err != nil {
		return engine.Decision{}, fmt.Errorf("gcacw: %w", err)
	}
	if len(d.Problems) == 0 {
		d.Facts = markUndo(st, side, d.Facts, *cd.n > 0, after)
	}
	return d, nil
}

// decide decides a player's or the referee's mail, and says how each
// line was read: the echo of the orders, of the facts (echoLine), and the
// answers to STATUS and HELP.
func (m sim) decide(side string, os []Order) []events.Problem {
	st := m.State
	var probs []events.Problem
	var help bool
	status := slices.ContainsFunc(os, func(o Order) bool { return o.Kind == oStatus })
	listStanding := slices.ContainsFunc(os, func(o Order) bool { return o.Kind == oStanding && o.When == "" })
	if side == engine.RefereeSide {
		probs, help = m.referee(os)
	} else {
		probs, help = m.player(side, os)
	}
	if len(probs) > 0 {
		for i := range probs {
			if probs[i].Hint == "" {
				probs[i].Hint = "HELP shows what you may send now"
			}
			probs[i].Msg, probs[i].Hint = plainRule(probs[i].Msg), plainRule(probs[i].Hint)
		}
		return probs
	}
	// Each echo line is seen by whom its order or fact is: a side's
	// queued and standing orders, and its HELP and STATUS, by that side.
	own := events.ToSide(side)
	if side == engine.RefereeSide {
		own = events.ToReferees()
	}
	say := func(v events.Vis, lines ...string) {
		for _, l := range lines {
			m.SayTo(v, "%s", plainRule(l))
		}
	}
	for _, o := range os {
		if o.Kind != oHelp && o.Kind != oStatus && !(o.Kind == oStanding && o.When == "") {
			v := events.Vis{}
			if o.Kind == oQueue || o.Kind == oCancel || o.Kind == oStanding {
				v = own
			}
			say(v, "read: "+readBack(st, o))
		}
	}
	cur := st
	for _, f := range m.Facts() {
		s := echoLine(f)
		if f.Kind == kSet {
			s = describeSet(st, f)
		}
		next := cur
		if side == engine.RefereeSide {
			// A referee's command says what it cost the unit (issue:
			// costs told): the state before and after the fact.
			if n, err := evolve(cur, f); err == nil {
				next = n
				if c := costNote(cur, next, f); c != "" && s != "" && f.Kind != kSet {
					s += " " + c
				}
			}
		}
		cur = next
		if s != "" {
			say(f.Vis, s)
		}
	}
	if status {
		for _, l := range m.State.header() {
			say(own, strings.TrimSpace(l))
		}
		if side != engine.RefereeSide {
			say(own, queueList(m.State, side))
		}
	}
	if (status || listStanding) && side != engine.RefereeSide {
		if l := m.State.standingList(side); len(l) > 0 {
			say(own, "your standing orders: "+strings.Join(l, "; "))
		} else {
			say(own, "you have no standing orders: every Cavalry Retreat is asked of you by mail")
		}
	}
	if help {
		who := side
		if side == engine.RefereeSide {
			who = ""
		}
		say(own, strings.Split(strings.TrimRight(Help(m.State, who), "\n"), "\n")...)
	}
	return nil
}

// player decides a player's mail: QUEUE, CANCEL and TRANSFER lines first,
// then the one action (GCACW 5a: one action per Action Phase; docs/ORDERS.md:
// one mail is one action), then every automatic step that follows.
func (m sim) player(side string, os []Order) ([]events.Problem, bool) {
	var probs []events.Problem
	var action, takeAlone *Order
	var transfers, answers, standings, fallBacks []Order
	help := false
	for i := range os {
		o := os[i]
		switch o.Kind {
		case oHelp:
			help = true
		case oTransfer:
			transfers = append(transfers, o)
		case oRetreat:
			answers = append(answers, o)
		case oFallBack:
			fallBacks = append(fallBacks, o)
		case oStanding:
			if o.When != "" {
				standings = append(standings, o)
			}
		case oTake:
			if takeAlone != nil || action != nil {
				probs = append(probs, problemAt(o, 0, "one choice per mail", ""))
			}
			takeAlone = &os[i]
		case oPass, oMarch, oActivate, oAssault:
			if action != nil {
				probs = append(probs, problemAt(o, 0, fmt.Sprintf("one action per mail: this mail already has %s on line %d (GCACW 5a)", action.Kind, action.Line), "QUEUE "+o.Kind+" … keeps it for later"))
				continue
			}
			action = &os[i]
		}
	}
	if takeAlone != nil && action != nil {
		if action.Kind == oPass {
			probs = append(probs, problemAt(*action, 0, "TAKE and PASS in one mail", "TAKE or PASS"))
		} else {
			takeAlone = nil // TAKE then the action: the action takes it
		}
	}
	st := m.State
	if st.Phase == PhaseOver {
		for _, o := range os {
			if o.Kind != oHelp && o.Kind != oStatus {
				return []events.Problem{problemAt(o, 0, "the game is over: "+st.Result, "")}, help
			}
		}
		return nil, help
	}
	// UNDO stands alone (HELP and STATUS aside).
	if i := slices.IndexFunc(os, func(o Order) bool { return o.Kind == oUndo }); i >= 0 {
		for _, o := range os {
			if o.Kind != oUndo && o.Kind != oHelp && o.Kind != oStatus {
				return []events.Problem{problemAt(o, 0, "UNDO takes back your last order; send other orders in the next mail", "UNDO")}, help
			}
		}
		return m.undo(side, os[i]), help
	}
	// A Cavalry Retreat asked of this side (GCACW 5.1.2): the mail answers
	// it with CAVALRY RETREAT lines, PASS or standing orders; its other
	// orders wait.
	settle := false
	if a := st.Ask; a != nil && a.Side == side && a.Hex != "" {
		// The defender's retreat after an assault (fallback.go): RETREAT
		// lines or PASS answer it; its other orders wait.
		if action != nil && action.Kind == oPass {
			action, settle = nil, true
		}
		for _, o := range append(append(append([]Order(nil), transfers...), answers...), nonNil(action, takeAlone)...) {
			probs = append(probs, problemAt(o, 0, fmt.Sprintf("first say where your units attacked in %s retreat", a.Hex), fallBackForm+"; QUEUE "+o.Kind+" … keeps the order for later"))
		}
		action, takeAlone, transfers, answers = nil, nil, nil, nil
		settle = settle || len(fallBacks) > 0
	} else if a != nil && a.Side == side {
		if action != nil && action.Kind == oPass {
			action, settle = nil, true
		}
		for _, o := range append(append([]Order(nil), transfers...), nonNil(action, takeAlone)...) {
			probs = append(probs, problemAt(o, 0, fmt.Sprintf("first answer the Cavalry Retreat: %s's %s marches next to your cavalry (GCACW 5.1.2)", opponent(side), st.unit(a.Unit).Name), "CAVALRY RETREAT <unit> [<hex>...], or PASS (none retreats); QUEUE "+o.Kind+" … keeps the order for later"))
		}
		action, takeAlone, transfers = nil, nil, nil
		settle = settle || len(answers) > 0 || len(standings) > 0
	} else if len(answers) > 0 {
		probs = append(probs, problemAt(answers[0], 0, "no Cavalry Retreat is asked of you now", "STANDING CAVALRY RETREAT ALL ALWAYS (a standing order, kept until changed)"))
	}
	if len(fallBacks) > 0 && (st.Ask == nil || st.Ask.Side != side || st.Ask.Hex == "") {
		probs = append(probs, problemAt(fallBacks[0], 0, "no retreat after an assault is asked of you now", ""))
	}
	// Standing orders (docs/ORDERS.md), in the order written.
	for _, o := range standings {
		if o.Unit != "" {
			if u := st.unit(o.Unit); u.Type != Cavalry {
				probs = append(probs, problemAt(o, o.UnitCol, fmt.Sprintf("%s is %s: only cavalry makes a Cavalry Retreat (GCACW 5.1.2)", u.Name, typeName(u.Type)), "STANDING CAVALRY RETREAT ALL NEVER"))
				continue
			}
		}
		m.EmitTo(events.ToSide(side), kStandingSet, aSide.Arg(side), aUnit.Arg(o.Unit), aWhen.Arg(o.When))
	}
	// QUEUE and CANCEL, in the order written.
	for _, o := range os {
		switch o.Kind {
		case oQueue:
			n := 1
			if len(m.State.QueueSeq) == 2 {
				n = m.State.QueueSeq[sideIdx(side)] + 1
			}
			m.EmitTo(events.ToSide(side), kQueueAdded, aSide.Arg(side), aN.Arg(int64(n)), aOrder.Arg(o.Queued))
		case oCancel:
			found := false
			for _, q := range m.State.Queue {
				if q.Side == side && q.N == o.N {
					found = true
				}
			}
			if !found {
				probs = append(probs, problemAt(o, 0, fmt.Sprintf("you have no queued order #%d (%s)", o.N, queueList(m.State, side)), ""))
				continue
			}
			m.EmitTo(events.ToSide(side), kQueueCancelled, aSide.Arg(side), aN.Arg(int64(o.N)))
		}
	}
	// GCACW 3, phase 2: the Leader Transfer Phase.
	endsTransfer := false
	if st.Phase == PhaseTransfer {
		if action != nil && action.Kind != oPass || takeAlone != nil {
			o := action
			if o == nil {
				o = takeAlone
			}
			probs = append(probs, problemAt(*o, 0, "it is the Leader Transfer Phase (GCACW 3): send TRANSFER <leader> TO <unit> lines, or PASS, first", "PASS (and QUEUE "+o.Kind+" … to act as soon as you win the initiative)"))
		}
		if action != nil || len(transfers) > 0 {
			if slices.Contains(st.TransferDone, side) {
				o := transfers
				if action != nil {
					o = append(o, *action)
				}
				probs = append(probs, problemAt(o[0], 0, "you have finished your Leader Transfer Phase; "+waitingFor(st, side), "QUEUE … (orders for when you win the initiative)"))
			}
			endsTransfer = true
		}
	} else if len(transfers) > 0 {
		probs = append(probs, problemAt(transfers[0], 0, fmt.Sprintf("leaders transfer only in the Leader Transfer Phase (GCACW 3); now it is the %s", phaseName(st)), ""))
	}
	for _, o := range transfers {
		if p := m.validateTransfer(o, false); p != nil {
			probs = append(probs, *p)
		}
	}
	if st.Phase != PhaseTransfer {
		if action != nil && len(probs) == 0 {
			probs = append(probs, m.expandRoutes(action)...)
		}
		for _, o := range []*Order{takeAlone, action} {
			if o != nil && len(probs) == 0 {
				probs = append(probs, m.validateAction(side, *o)...)
			}
		}
	}
	if len(probs) > 0 {
		return probs, help
	}
	// Execute: nothing above rolled a die.
	if settle && st.Ask.Hex != "" {
		if ps := m.answerFallBack(side, fallBacks); len(ps) > 0 {
			return ps, help
		}
	} else if settle {
		if ps := m.answerRetreat(side, answers); len(ps) > 0 {
			return ps, help
		}
	}
	if st.Phase == PhaseTransfer && endsTransfer {
		if st.Scn.Option(OptRandomEvents) && st.Event == "" {
			m.randomEvents()
		}
		for _, o := range transfers {
			m.transferLeader(o, "")
		}
		m.Emit(kTransferDone, aSide.Arg(side))
	}
	if takeAlone != nil {
		m.take(side)
	}
	if action != nil && st.Phase == PhaseCycle {
		m.execAction(side, *action)
	}
	m.advance()
	return nil, help
}

// nonNil returns the orders that are not nil.
func nonNil(os ...*Order) []Order {
	var out []Order
	for _, o := range os {
		if o != nil {
			out = append(out, *o)
		}
	}
	return out
}

func queueList(st *State, side string) string {
	var ns []string
	for _, q := range st.Queue {
		if q.Side == side {
			ns = append(ns, fmt.Sprintf("#%d %s", q.N, firstLine(q.Order)))
		}
	}
	if len(ns) == 0 {
		return "your queue is empty"
	}
	return "queued: " + strings.Join(ns, "; ")
}

// validateAction checks TAKE, PASS, MARCH or ACTIVATE from side against
// the current state, before any die is rolled.
func (m sim) validateAction(side string, o Order) []events.Problem {
	st := m.State
	bad := func(msg, hint string) []events.Problem { return []events.Problem{problemAt(o, 0, msg, hint)} }
	switch {
	case st.Phase != PhaseCycle:
		return bad(fmt.Sprintf("it is the %s, not the action cycle; %s", phaseName(st), waitingFor(st, side)), "")
	case st.Pending != nil:
		return bad("the game waits for the referee: "+st.Pending.Note, "QUEUE "+o.Kind+" … to act when you next hold the initiative")
	case st.Ask != nil:
		if st.Ask.Hex != "" {
			return bad(fmt.Sprintf("the game waits for %s to say %s", st.Ask.Side, st.Ask.gist()), "QUEUE "+o.Kind+" … to act when you next hold the initiative")
		}
		return bad(fmt.Sprintf("the game waits for %s to answer the Cavalry Retreat before %s's march goes on (GCACW 5.1.2)", st.Ask.Side, st.unit(st.Ask.Unit).Name), "QUEUE "+o.Kind+" … to act when you next hold the initiative")
	case st.Cycle.Holder != side: // GCACW 4.3: the holder is the active player
		return bad(fmt.Sprintf("%s holds the initiative: %s", st.Cycle.Holder, waitingFor(st, side)), "QUEUE "+o.Kind+" … to act when you next hold the initiative")
	}
	switch o.Kind {
	case oTake:
		if st.Cycle.Stage == StageAct {
			return bad("you have taken the initiative already: send your action", "MARCH …  or  ACTIVATE …")
		}
		if !st.canAct(side) {
			return bad("none of your units can march or be activated now (GCACW 5.1b, 5.2d), so you could not act", "PASS")
		}
	case oPass:
		if st.Cycle.Stage == StageAct {
			return bad("you took the initiative, so you must act (GCACW 4.2f); a unit may always march in place", m.exampleInPlace(side))
		}
	case oMarch:
		return m.validateMarch(o)
	case oActivate:
		return m.validateActivate(side, o)
	case oAssault:
		return m.validateAssault(side, o)
	}
	return nil
}

// validatePlan checks a path hex by hex, and the Force March condition.
func (m sim) validatePlan(o Order, u *Unit, pl Plan, ps []pos, opt bool, line, col int, text string) []events.Problem {
	var probs []events.Problem
	at := func(i int) (int, int) {
		if i < len(ps) {
			return ps[i].Line, ps[i].Col
		}
		return line, col
	}
	cur := u.Hex
	for i, h := range pl.Path {
		if i == len(pl.Path)-1 && m.State.attacksAllowed() && m.State.hasEnemy(u.Side, h) {
			break // GCACW 5.1.5: the march ends attacking it
		}
		if _, _, why := m.State.stepCost(u, cur, h); why != "" {
			l, c := at(i)
			probs = append(probs, events.Problem{Line: l, Col: c, Text: lineText(o, l, text), Msg: fmt.Sprintf("%s cannot march from %s to %s: %s", u.Name, cur, h, why), Hint: m.State.routeHint(u, pl)})
			break
		}
		cur = h
	}
	if pl.Force != "" {
		if why := forceProblem(u, opt); why != "" {
			probs = append(probs, events.Problem{Line: line, Col: col, Text: text, Msg: why, Hint: "leave out FORCE"})
		}
		if pl.Force == "short" && m.State.Scn.Tables.Terrain == nil {
			probs = append(probs, events.Problem{Line: line, Col: col, Text: text, Msg: "FORCE IF SHORT needs the Terrain Effects Chart, which this scenario does not load", Hint: "FORCE IF MA < 4"})
		}
	}
	return probs
}

func lineText(o Order, line int, fallback string) string {
	if line == o.Line {
		return o.Text
	}
	return fallback
}

func (m sim) validateMarch(o Order) []events.Problem {
	u := m.State.unit(o.Unit)
	// GCACW 5.1a-b, 5.1-OPT.
	if why := m.State.canMarch(u); why != "" {
		return []events.Problem{problemAt(o, o.UnitCol, fmt.Sprintf("%s cannot march: %s", u.Name, why), m.exampleMarch(u.Side))}
	}
	return m.validatePlan(o, u, o.Plan, o.PlanPos, u.Fatigue >= 4, o.Line, o.UnitCol, o.Text)
}

func (m sim) validateActivate(side string, o Order) []events.Problem {
	st := m.State
	l := st.leader(o.Leader)
	// GCACW 5.2c, 5.2d, 5.2.1.
	if why := st.leaderEligible(l); why != "" {
		return []events.Problem{problemAt(o, o.LCol, "cannot activate "+l.Name+": "+why, m.exampleActivate(side))}
	}
	var probs []events.Problem
	seen := map[string]bool{}
	for _, e := range o.Entries {
		u := st.unit(e.Unit)
		p := func(msg, hint string) {
			probs = append(probs, events.Problem{Line: e.Line, Col: e.Col, Text: e.Text, Msg: msg, Hint: hint})
		}
		if seen[e.Unit] {
			// GCACW 5.1d: never more than one march per Action Phase.
			p(fmt.Sprintf("%s is named twice: a unit marches at most once per Action Phase (GCACW 5.1d)", u.Name), "")
			continue
		}
		seen[e.Unit] = true
		if why := st.mayActivate(l, u); why != "" {
			p(why, m.exampleActivate(side))
			continue
		}
		if st.Scn.Option(OptActivationMarch) {
			// No hexes: it marches in place (GCACW 5.1.5).
			probs = append(probs, m.validatePlan(o, u, e.Plan, e.PlanPos, u.Fatigue >= 4, e.Line, e.Col, e.Text)...)
		}
	}
	// GCACW 5.2.2-OTR.
	if n := st.activationLimit(side); n > 0 && len(o.Entries) > n {
		probs = append(probs, problemAt(o, o.LCol, fmt.Sprintf("in OTR a Union leader activated on an initiative die of %d may activate %d unit(s), not %d (GCACW 5.2.2-OTR)", st.Cycle.DieUSA, n, len(o.Entries)), ""))
	}
	return probs
}

// execAction performs a validated action.
func (m sim) execAction(side string, o Order) {
	switch o.Kind {
	case oTake:
		m.take(side)
	case oPass:
		m.pass(side, "")
	case oMarch:
		m.doMarch(side, o)
	case oActivate:
		m.doActivate(side, o)
	case oAssault:
		m.doAssault(side, o)
	}
}

// useQueue applies the first order queued by side, now that it holds the
// initiative. An order that is no longer valid is dropped, saying why. It
// reports whether the queue held anything.
func (m sim) useQueue(side string) bool {
	i := slices.IndexFunc(m.State.Queue, func(q Queued) bool { return q.Side == side })
	if i < 0 {
		return false
	}
	q := m.State.Queue[i]
	os, probs := parseOrders(m.State, side, q.Order)
	if len(probs) == 0 && len(os) != 1 {
		probs = []events.Problem{{Msg: "a queued order must be one MARCH, ACTIVATE or PASS"}}
	}
	if len(probs) == 0 {
		probs = m.expandRoutes(&os[0])
	}
	if len(probs) == 0 {
		probs = m.validateAction(side, os[0])
	}
	if len(probs) > 0 {
		m.EmitTo(events.ToSide(side), kQueueDropped, aSide.Arg(side), aN.Arg(int64(q.N)), aReason.Arg(probs[0].Msg))
		return true
	}
	m.Emit(kQueueUsed, aSide.Arg(side), aN.Arg(int64(q.N)), aOrder.Arg(q.Order))
	m.execAction(side, os[0])
	return true
}

// validateTransfer checks a leader's move to a unit (GCACW 2.2j-m): the
// unit must be subordinate to it, and infantry for an army or district
// leader. No range limit is in the rules (R15).
func (m sim) validateTransfer(o Order, referee bool) *events.Problem {
	st := m.State
	l, u := st.leader(o.Leader), st.unit(o.Target)
	if l == nil || u == nil {
		return &events.Problem{Line: o.Line, Col: o.Col, Text: o.Text, Msg: "TRANSFER takes a leader and a unit"}
	}
	why := st.transferWhy(l, u, referee)
	if why == "" {
		return nil
	}
	hint := ""
	for _, c := range st.live() {
		if st.transferWhy(l, c, referee) == "" {
			hint = fmt.Sprintf("TRANSFER %s TO %s", st.lref(l), st.uref(c))
			if referee {
				hint = "RULE " + hint
			}
			break
		}
	}
	return &events.Problem{Line: o.Line, Col: o.UnitCol, Text: o.Text, Msg: why, Hint: hint}
}

// transferWhy says why leader l may not go to unit u in the Leader
// Transfer Phase (or by the referee's ruling), or "".
func (st *State) transferWhy(l *Leader, u *Unit, referee bool) string {
	switch {
	case u.Side != l.Side:
		return fmt.Sprintf("%s is a %s unit and %s a %s leader", u.Name, u.Side, l.Name, l.Side)
	case l.Removed:
		return l.Name + " has left play (GCACW 2.2j): no unit it may stand with is left"
	case u.Eliminated:
		return u.Name + " has been eliminated"
	case !slices.Contains(u.In, l.Commands):
		return fmt.Sprintf("%s may only stand with a unit it commands (GCACW 2.2j, 2.2m): %s is not in %s", l.Name, u.Name, l.Commands)
	case (l.Kind == ArmyLeader || l.Kind == DistrictLeader) && u.Type != Infantry:
		return fmt.Sprintf("%s is a%s %s leader and must stand with infantry (GCACW 2.2k, 2.2l)", l.Name, map[bool]string{true: "n", false: ""}[l.Kind == ArmyLeader], l.Kind)
	case l.With == u.ID:
		return fmt.Sprintf("%s is with %s already", l.Name, u.Name)
	case !referee && st.Scn.Reading(ReadR15) == "command-radius" && !st.inRadius(l, u):
		// R15, read as "command-radius": no transfer beyond it.
		return fmt.Sprintf("%s is not within %s's command radius, and in this scenario a leader transfers only within it (R15, the scenario's reading)", u.Name, l.Name)
	}
	return ""
}

func (m sim) transferLeader(o Order, by string) {
	l := m.State.leader(o.Leader)
	args := []events.Arg{aLeader.Arg(l.ID), aFrom.Arg(l.With), aTo.Arg(o.Target)}
	if by != "" {
		args = append(args, aBy.Arg(by))
	}
	m.Emit(kLeaderTransferred, args...)
}

// randomEvents rolls two dice on the Random Events Table (GCACW 3, phase
// 1, R4); the event's effect is the referee's to apply.
func (m sim) randomEvents() {
	sum, vals := m.roll("random events", 2)
	args := []events.Arg{aTurn.Arg(int64(m.State.Turn)), aRoll.Arg(int64(sum)), diceArg(vals)}
	note := fmt.Sprintf("random events roll %d: the scenario loads no Random Events Table; read it and apply the event, then RULE DONE", sum)
	for _, e := range m.State.Scn.Tables.Events {
		if e.Roll == sum {
			args = append(args, aEvent.Arg(e.Text))
			note = fmt.Sprintf("random event (roll %d): %s. Apply its effect, then RULE DONE", sum, e.Text)
		}
	}
	m.Emit(kRandomEventRolled, args...)
	m.Emit(kRefereePending, aStep.Arg(StepEvent), aDie.Arg(int64(sum)), aNote.Arg(note))
}

// beginTurn starts turn n (GCACW 3).
func (m sim) beginTurn(n int) {
	m.Emit(kTurnBegun, aTurn.Arg(int64(n)))
	if m.State.Scn.Option(OptRandomEvents) {
		m.randomEvents()
	}
}

// resume goes on with play after a ruling.
func (m sim) resume() {
	st := m.State
	switch {
	case st.Pending != nil, st.Ask != nil:
	case st.March != nil:
		m.continueMarch()
	case st.Act != nil && st.Scn.Option(OptActivationMarch) && st.Act.MA > 0:
		m.continueActivation()
	case st.Phase == PhaseCycle && st.Cycle.Acting:
		m.endAction()
	}
}

var adjustments = []string{"fatigue", "organized", "disorganized", "exhausted", "rested", "manpower", "place", "transfer", "retreat", "attacks", "loss", "casualty", "advance"}

// referee decides the referee's RULE lines: adjustments first, in the
// order written, then the one ruling that lets play go on.
func (m sim) referee(os []Order) ([]events.Problem, bool) {
	var probs []events.Problem
	var resolving *Order
	help := false
	retreats := 0
	for i := range os {
		o := os[i]
		switch {
		case o.Kind == oHelp || o.Kind == oStatus:
			help = help || o.Kind == oHelp
		case o.Kind == oSet: // a correction, applied in the order written
		case slices.Contains(adjustments, o.Rule.What) && !(o.Rule.What == "retreat" && o.Rule.Result == "none"):
			if o.Rule.What == "retreat" && m.State.assaultPending() == nil {
				retreats++
			}
		default:
			if resolving != nil {
				probs = append(probs, problemAt(o, 0, fmt.Sprintf("one ruling that lets play go on per mail (this mail has RULE %s on line %d)", strings.ToUpper(resolving.Rule.What), resolving.Line), ""))
				continue
			}
			resolving = &os[i]
		}
	}
	if m.State.Phase == PhaseOver {
		for _, o := range os {
			if o.Kind != oHelp && o.Kind != oStatus {
				return []events.Problem{problemAt(o, 0, "the game is over: "+m.State.Result, "")}, help
			}
		}
		return nil, help
	}
	if retreats > 0 && resolving != nil {
		probs = append(probs, problemAt(*resolving, 0, "RULE RETREAT lines settle the Cavalry Retreat; send other rulings in the next mail", ""))
	}
	for _, o := range os {
		if o.Kind == oHelp || o.Kind == oStatus || resolving != nil && o.Line == resolving.Line {
			continue
		}
		adjust := m.adjust
		if o.Kind == oSet {
			adjust = m.set
		}
		if p := adjust(o); p != nil {
			probs = append(probs, *p)
		}
	}
	// RULE RETREAT lines settle the Cavalry Retreat (adjust has refused
	// them if none waits).
	if retreats > 0 && len(probs) == 0 {
		m.Emit(kRefereeRuled, aStep.Arg(StepRetreat), aRetreats.Arg(int64(retreats)))
	}
	if resolving != nil {
		if p := m.validateRuling(*resolving); p != nil {
			probs = append(probs, *p)
		}
	}
	if len(probs) > 0 {
		return probs, help
	}
	if resolving != nil {
		m.rule(*resolving)
	}
	// A leader left alone is settled once no leader stands without a unit.
	if p := m.State.Pending; p != nil && p.Step == StepLeaderAlone && !m.State.anyLeaderAlone() {
		m.Emit(kRefereeRuled, aStep.Arg(StepLeaderAlone))
	}
	m.resume()
	m.advance()
	return nil, help
}

func (s *State) anyLeaderAlone() bool {
	for _, l := range s.Leaders {
		if u := s.unit(l.With); !l.Removed && (u == nil || u.Eliminated) {
			return true
		}
	}
	return false
}

// adjust applies one counter adjustment by the referee.
func (m sim) adjust(o Order) *events.Problem {
	r := o.Rule
	bad := func(msg, hint string) *events.Problem {
		p := problemAt(o, o.UnitCol, msg, hint)
		return &p
	}
	u := m.State.unit(r.Unit)
	if u != nil && u.Eliminated && r.What != "manpower" {
		return bad(u.Name+" has been eliminated", "")
	}
	by := aBy.Arg("referee")
	switch r.What {
	case "fatigue":
		m.Emit(kUnitFatigueSet, aUnit.Arg(u.ID), aFatigue.Arg(int64(r.N)), by)
	case "organized":
		m.Emit(kUnitOrganized, aUnit.Arg(u.ID), aReason.Arg("referee"))
	case "disorganized":
		m.Emit(kUnitDisorganized, aUnit.Arg(u.ID), aReason.Arg("referee"))
	case "exhausted":
		m.Emit(kUnitExhausted, aUnit.Arg(u.ID), by)
	case "rested":
		m.Emit(kUnitRested, aUnit.Arg(u.ID), by)
	case "manpower":
		if r.N > maxStrength(m.State.Scn.Game) {
			return bad(fmt.Sprintf("%s allows strength up to %d (GCACW 2.2o)", m.State.Scn.Game, maxStrength(m.State.Scn.Game)), "")
		}
		if u.Eliminated && r.N > 0 {
			return bad(u.Name+" has been eliminated", "")
		}
		m.Emit(kStrengthSet, aUnit.Arg(u.ID), aLeft.Arg(int64(r.N)), by)
		if r.N == 0 && !u.Eliminated {
			m.Emit(kUnitEliminated, aUnit.Arg(u.ID), aReason.Arg("referee"))
			m.leadersAlone()
		}
	case "place":
		h := r.Hexes[0]
		if !m.State.Scn.Map.OnMap(h) || m.State.Scn.Map.Terrain(h) == Water || m.State.hasEnemy(u.Side, h) {
			return bad(fmt.Sprintf("%s is off the map, water, or holds enemy units", h), "")
		}
		m.Emit(kUnitPlaced, aUnit.Arg(u.ID), aHex.Arg(h.String()), by)
	case "transfer":
		t := Order{Line: o.Line, Col: o.Col, Text: o.Text, Leader: r.Leader, Target: r.Unit, UnitCol: o.UnitCol}
		if p := m.validateTransfer(t, true); p != nil {
			return p
		}
		m.transferLeader(t, "referee")
	case "loss", "casualty", "advance":
		return m.adjustAssault(o)
	case "attacks":
		// GCACW 5.1.5 (Ambiguity A25): the referee allows or refuses
		// marches that end attacking an enemy unit, from now on.
		if allowed := r.Result == "allowed"; allowed == m.State.Attacks {
			return bad("march attacks are "+map[bool]string{true: "allowed", false: "refused"}[allowed]+" already", "")
		}
		m.Emit(kAttacksRuled, aAllowed.Arg(r.Result == "allowed"))
	case "retreat":
		if m.State.assaultPending() != nil {
			return m.adjustAssault(o)
		}
		p := m.State.Pending
		if p == nil || p.Step != StepRetreat {
			return bad("no Cavalry Retreat waits for a ruling", "")
		}
		if !slices.Contains(p.Units, u.ID) {
			return bad(fmt.Sprintf("%s is not one of the cavalry that may retreat (%s)", u.Name, strings.Join(p.Units, ", ")), "")
		}
		cur := u.Hex
		path := []hex.Hex{cur}
		for _, h := range r.Hexes {
			if !hex.Adjacent(cur, h) || !m.State.Scn.Map.OnMap(h) || m.State.Scn.Map.Terrain(h) == Water || m.State.hasEnemy(u.Side, h) {
				return bad(fmt.Sprintf("the retreat cannot go from %s to %s (not adjacent, off the map, water or enemy-held)", cur, h), "")
			}
			cur = h
			path = append(path, h)
		}
		m.Emit(kCavalryRetreated, aUnit.Arg(u.ID), aPath.Arg(hexStrs(path)...), by)
	default:
		return bad("not an adjustment: "+r.What, "")
	}
	return nil
}

// validateRuling checks the ruling that lets play go on against what
// waits for it.
func (m sim) validateRuling(o Order) *events.Problem {
	st, r, p := m.State, o.Rule, m.State.Pending
	bad := func(msg string) *events.Problem {
		pr := problemAt(o, 0, msg, refereeHint(st))
		return &pr
	}
	step := ""
	if p != nil {
		step = p.Step
	}
	switch r.What {
	case "extended":
		if step != StepExtended {
			return bad("no Extended March waits for a ruling; " + refereeWaiting(st))
		}
		if r.Unit != p.Unit {
			return bad(fmt.Sprintf("the Extended March waiting is %s's", p.Unit))
		}
	case "march":
		if step != StepMove {
			return bad("no march waits for the referee; " + refereeWaiting(st))
		}
		if r.Unit != p.Unit {
			return bad(fmt.Sprintf("the march waiting is %s's", p.Unit))
		}
		u := st.unit(r.Unit)
		if r.Hexes[0] != u.Hex && !slices.Contains(st.March.Plan.Path, r.Hexes[0]) {
			return bad(fmt.Sprintf("%s is not on %s's path (%s)", r.Hexes[0], u.ID, strings.Join(hexStrs(st.March.Plan.Path), " ")))
		}
	case "retreat": // NONE
		if step != StepRetreat {
			return bad("no Cavalry Retreat waits for a ruling; " + refereeWaiting(st))
		}
	case "initiative":
		if step != StepTie {
			return bad("no initiative tie waits for a ruling; " + refereeWaiting(st))
		}
	case "winner":
		if st.Phase != PhaseVictory {
			return bad("the winner is ruled after the last turn; " + refereeWaiting(st))
		}
	case "fight":
		if step != StepAssault && step != StepAttack {
			return bad("no assault waits for the referee: RULE FIGHT OUT has one fought out as a battle; " + refereeWaiting(st))
		}
		if at := p.Path[len(p.Path)-1]; r.Hexes[0].String() != at {
			return bad(fmt.Sprintf("the assault waiting is on %s", at))
		}
	case "battle":
		if step != StepBattle {
			return bad("no battle is being fought out: RULE BATTLE carries a battle's result back; " + refereeWaiting(st))
		}
		if r.Note != p.Battle.Key {
			return bad(fmt.Sprintf("the battle being fought out is %s", p.Battle.Key))
		}
	case "done":
		switch {
		case step == StepActivation, step == StepEvent, step == StepInsub, step == StepAttack, step == StepAssault:
		case step == "" && st.Phase == PhaseReorg:
		default:
			return bad("nothing waits for RULE DONE; " + refereeWaiting(st))
		}
	}
	return nil
}

// rule applies the ruling that lets play go on.
func (m sim) rule(o Order) {
	st, r := m.State, o.Rule
	switch r.What {
	case "extended":
		die := st.Pending.Die
		m.Emit(kRefereeRuled, aStep.Arg(StepExtended), aUnit.Arg(r.Unit), aResult.Arg(r.Result))
		m.Emit(kExtendedMarchResolved, aUnit.Arg(r.Unit), aDie.Arg(int64(die)), aResult.Arg(r.Result), aBy.Arg("referee"))
		m.applyEM(r.Unit, r.Result)
	case "march":
		u := st.unit(r.Unit)
		path := []hex.Hex{u.Hex}
		if r.Hexes[0] != u.Hex {
			for _, h := range st.March.Plan.Path {
				path = append(path, h)
				if h == r.Hexes[0] {
					break
				}
			}
		}
		m.Emit(kRefereeRuled, aStep.Arg(StepMove), aUnit.Arg(r.Unit), aHex.Arg(r.Hexes[0].String()))
		m.finishMarch(u, path, 0, "ruled by the referee")
	case "retreat":
		m.Emit(kRefereeRuled, aStep.Arg(StepRetreat), aResult.Arg("none"))
	case "initiative":
		m.Emit(kRefereeRuled, aStep.Arg(StepTie), aResult.Arg(r.Result))
		if r.Result == "END" {
			m.endCycle("the referee ended the action cycle on a tied initiative roll (GCACW 4.2e)")
			return
		}
		m.Emit(kInitiativeTieRuled, aSide.Arg(r.Result))
		m.recordDie()
	case "winner":
		reason := "the referee ruled the result after the last turn"
		if v := st.Scn.Tables.Victory; v != nil {
			// R24: the conditions as they stood, for the game-over mail
			// to show what the referee weighed.
			vp, detail := st.score()
			lost := st.manpowerLost()
			detail = append(detail, fmt.Sprintf("Manpower lost: USA %d, CSA %d", lost[0], lost[1]))
			m.Emit(kVictoryWeighed, aUsa.Arg(int64(vp[0])), aCsa.Arg(int64(vp[1])), aDetail.Arg(detail...))
			reason += ", weighing the scenario's victory conditions"
		}
		if r.Note != "" {
			reason += ": " + r.Note
		}
		w := r.Result
		if w == "DRAW" {
			w = ""
		}
		m.Emit(kGameEnded, aWinner.Arg(w), aReason.Arg(reason))
	case "fight":
		p := st.Pending
		side := ""
		if u := st.unit(p.attackers()[0]); u != nil {
			side = u.Side
		}
		m.Emit(kRefereeRuled, aStep.Arg(p.Step), aResult.Arg("fight"))
		m.openBattle(side, slices.Clone(p.attackers()), r.Hexes[0], p.Leader, r.System, r.Scenario, r.Sides)
	case "battle":
		m.battleEnded(o)
	case "done":
		step := ""
		if st.Pending != nil {
			step = st.Pending.Step
			m.Emit(kRefereeRuled, aStep.Arg(step))
		}
		switch {
		case step == StepActivation:
			m.Emit(kActivationEnded, aLeader.Arg(st.Act.Leader))
		case step == "" && st.Phase == PhaseReorg:
			m.endReorganization()
		}
	}
}
