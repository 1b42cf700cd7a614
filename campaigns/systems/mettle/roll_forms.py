"""Forms of METTLE's Play page: a Check (an Action of the Scenes chapter or a plain Check
by Attribute or Backstory, its die modifiers, Surge, Teamwork, Raises and Difficulty), a
Twist's price, and a Split Action. Shapes and bounds here, with a message beside each
field; the numbers (pools, odds, splits, the Surge limit) come from the sheet and the
rules engine."""

from __future__ import annotations

from django import forms

from campaigns.forms import BootstrapForm
from config.parsing import RequestKeyField
from rules.engine.mettle import checks
from rules.engine.mettle.data import (
    ACTION_BY_NAME,
    ACTIONS,
    ATTRIBUTE_KEYS,
    ATTRIBUTE_NAMES,
    CONCEPT,
    DEFAULT_TWIST,
    DIFFICULTY,
    TWIST_SEEDS,
)

from .roll_services import CheckRequest
from .rolls import MettleRoll

DICE_MAX = 20  # +/-D typed: "expect +1D to +3D" (EN §Check Modifiers); 20 is only a bound
DIFFICULTY_MAX = checks.POOL_MAX  # a target's pool or a typed Difficulty
TEAM_MAX = checks.POOL_MAX
TARGET = "target"
BACKSTORY = "backstory-"
SPLIT_PARTS_MAX = 4


def _number(label: str, low: int, high: int, example: str, *, required=True,
            help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=low, max_value=high, required=required, help_text=help_text,
        initial=0 if required else None,
        error_messages={
            "min_value": f"{label}: {low} or more.",
            "max_value": f"{label}: at most {high}.",
            "invalid": f"{label} is a whole number, like {example}.",
            "required": f"{label} is a whole number: 0 for none.",
        },
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def pool_choices(sheet, backstories) -> list[tuple[str, str]]:
    """The five Attributes with their pools as modified, then each Backstory (rolled with
    the CONCEPT pool: docs/RULES.md AMB-M11)."""
    choices = [(key, f"{ATTRIBUTE_NAMES[key]} {sheet.modified[key]}D") for key in ATTRIBUTE_KEYS]
    choices += [(f"{BACKSTORY}{i}", f"Backstory: {text} (CONCEPT {sheet.modified[CONCEPT]}D)")
                for i, text in enumerate(backstories) if text]
    return choices


def pool_of(sheet, backstories, choice: str) -> tuple[str, str, int]:
    """(attribute, backstory text, pool) of a chosen pool."""
    if choice.startswith(BACKSTORY):
        return CONCEPT, backstories[int(choice.removeprefix(BACKSTORY))], sheet.modified[CONCEPT]
    return choice, "", sheet.modified[choice]


def staggered_penalty(sheet) -> int:
    """A Staggered character's die penalty (EN §Taking Damage: "a die penalty to Checks
    equal to their negative Mettle"), from the sheet; 0 when not Staggered."""
    stat = sheet.stats.get("check_penalty")
    return stat.value if stat is not None else 0


def tranquilized(label: str, difficulty_raise: int) -> str:
    """A Check's label with the tranquilizer's raise said, so that the log shows how the
    Difficulty was made (the label is cut to its column, the raise kept)."""
    if not difficulty_raise:
        return label
    tail = f" (Difficulty +{difficulty_raise}: tranquilized)"
    return label[:200 - len(tail)] + tail


class CheckForm(BootstrapForm):
    action = forms.ChoiceField(
        required=False, label="Action",
        help_text="An Action of the Scenes chapter sets its Check's pool; or a plain Check.")
    pool = forms.ChoiceField(label="Roll", error_messages={
        "invalid_choice": "Choose an Attribute or a Backstory from the list."})
    bonus = _number("Bonus dice (+D)", 0, DICE_MAX, "2",
                    help_text="Weapons, tools, strategy.")
    penalty = _number("Penalty dice (-D)", 0, DICE_MAX, "1",
                      help_text="Wounds, statuses; type it without the minus sign.")
    surge = _number("Mettle Surge", 0, DICE_MAX, "1",
                    help_text="+1D per point of Mettle spent (in combat).")
    team_best = _number("Teamwork: the highest pool helping", 1, TEAM_MAX, "4",
                        required=False,
                        help_text="+1D when yours is lower (EN, Teamwork). Blank: no help.")
    raises = _number("Raises", 0, checks.POOL_MAX, "1",
                     help_text="Dice set to six before rolling: certain Edge, fewer to Score.")
    difficulty = forms.ChoiceField(label="Difficulty", initial="3", error_messages={
        "invalid_choice": "Choose a Difficulty from the ladder, or a target's pool."})
    target_pool = _number("Target's pool (or Difficulty)", 0, DIFFICULTY_MAX, "3",
                          required=False,
                          help_text="The opposing Attribute: typed here, it replaces the "
                                    "ladder.")
    request_key = RequestKeyField()

    def __init__(self, *args, sheet, backstories=(), surge_max: int = 0,
                 difficulty_raise: int = 0, rally_refusal: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        self.backstories = list(backstories)
        self.surge_max = surge_max
        # A tranquilizer's Dose, added to every Check's Difficulty while it lasts
        # (Scenery > Affliction; hazards.tranquilizer_raise, AMB-M-AFF-7).
        self.difficulty_raise = difficulty_raise
        self.rally_refusal = rally_refusal  # Burning, Staggered or afflicted: no Rally
        self.fields["action"].choices = [("", "A plain Check")] + [
            (a.name, f"{a.name}: {ATTRIBUTE_NAMES[a.active]} vs {a.passive}") for a in ACTIONS]
        self.fields["pool"].choices = pool_choices(sheet, self.backstories)
        self.fields["difficulty"].choices = [
            (str(value), f"{value} {name}") for value, name in DIFFICULTY
        ] + [(TARGET, "A target's pool (type it below)")]
        self.fields["surge"].help_text += f" Now at most {surge_max}."
        if difficulty_raise:
            note = f" A tranquilizer adds +{difficulty_raise} to it."
            self.fields["difficulty"].help_text += note
            self.fields["target_pool"].help_text += note
        if self.is_bound and str(self.data.get("target_pool") or "").strip():
            self.data = self.data.copy()
            self.data["difficulty"] = TARGET

    @property
    def chosen_action(self):
        name = (self.cleaned_data.get("action") if hasattr(self, "cleaned_data")
                else self.data.get("action")) or ""
        return ACTION_BY_NAME.get(name)

    def clean(self):
        data = super().clean()
        if data.get("action") == "Rally" and self.rally_refusal:
            self.add_error("action", self.rally_refusal)
        if (data.get("difficulty") == TARGET and data.get("target_pool") is None
                and "target_pool" not in self.errors):
            self.add_error("target_pool", "Type the target's pool, or choose a "
                                              "Difficulty from the ladder.")
        if data.get("surge") and data["surge"] > self.surge_max:
            self.add_error("surge", f"A Surge may spend at most {self.surge_max} Mettle now: "
                                    "at most MOTIVE, never bringing Mettle to 0.")
        if not self.errors and data.get("raises", 0) > self.dice():
            self.add_error("raises", f"At most {self.dice()} Raises: the pool has "
                                     f"{self.dice()} dice.")
        return data

    def difficulty_value(self) -> tuple[int, str]:
        """The Check's Difficulty: the ladder's or the target's pool, plus what a
        tranquilizer raises it by."""
        data = self.cleaned_data
        if data.get("target_pool") is not None:
            return (data["target_pool"] + self.difficulty_raise,
                    MettleRoll.DifficultyFrom.POOL)
        return int(data["difficulty"]) + self.difficulty_raise, MettleRoll.DifficultyFrom.LADDER

    def teamwork(self) -> int:
        _attribute, _backstory, pool = pool_of(self.sheet, self.backstories,
                                               self.cleaned_data["pool"])
        return checks.teamwork_bonus(pool, self.cleaned_data.get("team_best"))

    def dice(self) -> int:
        data = self.cleaned_data
        _attribute, _backstory, pool = pool_of(self.sheet, self.backstories, data["pool"])
        return checks.check_pool(pool, (data["bonus"], data["surge"], self.teamwork()),
                                 (data["penalty"],))

    def request(self) -> CheckRequest:
        data = self.cleaned_data
        attribute, backstory, pool = pool_of(self.sheet, self.backstories, data["pool"])
        difficulty, source = self.difficulty_value()
        action = self.chosen_action
        what = (f"{action.name}: {ATTRIBUTE_NAMES[attribute]} vs {action.passive}" if action
                else f"Backstory ({backstory})" if backstory
                else f"{ATTRIBUTE_NAMES[attribute]} Check")
        what = tranquilized(what, self.difficulty_raise)
        return CheckRequest(
            label=what[:200], attribute=attribute, backstory=backstory[:200], pool=pool,
            difficulty=difficulty, difficulty_from=source,
            action=action.name if action else "", bonus=data["bonus"],
            penalty=data["penalty"], surge=data["surge"], teamwork=self.teamwork(),
            raises=data["raises"])


class TwistForm(BootstrapForm):
    price = forms.ChoiceField(
        label="The Twist's price", initial=DEFAULT_TWIST,
        choices=[(name, f"{name}: lose {lost}") for name, lost, _ in TWIST_SEEDS],
        error_messages={"invalid_choice": "Choose a Twist from the list (Delay by default)."})
    note = forms.CharField(label="What it is", max_length=100, required=False,
                           help_text="The agreed consequence, e.g. “the gun jams”.")
    request_key = RequestKeyField()

    def price_text(self) -> str:
        data = self.cleaned_data
        return f"{data['price']}: {data['note']}" if data.get("note") else data["price"]


class SplitForm(BootstrapForm):
    """Scenes > Split Actions: k Actions, each with its Attribute (the highest involved is
    split, a smaller one caps its part: AMB-M7), its own +/-D after the split and its
    Difficulty. Each part's +/-D starts at a Staggered character's -XD (EN §Taking
    Damage; "Die Modifiers apply *after* the Split, treating each Action separately"),
    as the Check form's penalty does (AMB-M-CHK-5)."""

    parts = forms.TypedChoiceField(
        label="Actions", coerce=int, initial=2,
        choices=[(n, str(n)) for n in range(2, SPLIT_PARTS_MAX + 1)],
        error_messages={"invalid_choice": f"Split into 2 to {SPLIT_PARTS_MAX} Actions."})
    key = RequestKeyField()

    def __init__(self, *args, sheet, url: str = "", difficulty_raise: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        self.difficulty_raise = difficulty_raise  # a tranquilizer's, on every part
        if url:
            # More or fewer Actions re-render the rows; other changes only the plan.
            self.fields["parts"].widget.attrs.update({
                "hx-post": url, "hx-trigger": "change consume", "hx-target": "#split-panel",
                "hx-select": "#split-panel", "hx-swap": "outerHTML",
                "hx-include": "#split-form"})
        choices = [(key, f"{ATTRIBUTE_NAMES[key]} {sheet.modified[key]}D")
                   for key in ATTRIBUTE_KEYS]
        dice_initial = -staggered_penalty(sheet)
        for i in range(1, SPLIT_PARTS_MAX + 1):
            self.fields[f"action_{i}"] = forms.ChoiceField(
                required=False, label=f"Action {i}: which",
                choices=[("", "Another Action")] + [(a.name, a.name) for a in ACTIONS])
            self.fields[f"attribute_{i}"] = forms.ChoiceField(
                label=f"Action {i}: Attribute", choices=choices, initial="nature",
                error_messages={"invalid_choice": "Choose an Attribute from the list."})
            self.fields[f"dice_{i}"] = _number(f"Action {i}: +/-D", -DICE_MAX, DICE_MAX, "2",
                                               help_text="After the split.")
            self.fields[f"dice_{i}"].initial = dice_initial
            self.fields[f"difficulty_{i}"] = _number(f"Action {i}: Difficulty", 0,
                                                     DIFFICULTY_MAX, "3")
            self.fields[f"difficulty_{i}"].initial = 3
        if self.is_bound:
            # A row newly shown (more Actions declared) starts from the defaults, not
            # from "required" errors.
            self.data = self.data.copy()
            for i in range(1, SPLIT_PARTS_MAX + 1):
                if f"attribute_{i}" not in self.data:
                    for name, value in (("action", ""), ("attribute", "nature"),
                                        ("dice", str(dice_initial)), ("difficulty", "3")):
                        self.data.setdefault(f"{name}_{i}", value)

    def count(self) -> int:
        return self.cleaned_data["parts"]

    def part_fields(self) -> list[list]:
        n = (self.cleaned_data.get("parts") if hasattr(self, "cleaned_data") else None) \
            or int(self.initial.get("parts", 2))
        return [[self[f"{name}_{i}"] for name in ("action", "attribute", "dice", "difficulty")]
                for i in range(1, n + 1)]

    def clean(self):
        data = super().clean()
        n = data.get("parts")
        if n is None:
            return data
        # Only the declared parts count: the errors of the rows not shown are dropped.
        for i in range(n + 1, SPLIT_PARTS_MAX + 1):
            for name in ("action", "attribute", "dice", "difficulty"):
                self.errors.pop(f"{name}_{i}", None)
        if any(f"{name}_{i}" in self.errors for i in range(1, n + 1)
               for name in ("attribute", "dice", "difficulty")):
            return data
        try:
            self.plan()
        except ValueError as error:
            self.add_error("parts", str(error))
        return data

    def plan(self) -> list[dict]:
        """Each part: its Action, Attribute, share of the split, dice rolled, Difficulty
        and odds. The highest Attribute involved is split (M29); each part capped at its
        own Attribute's pool when smaller (AMB-M7); +/-D after the split."""
        data = self.cleaned_data
        n = data["parts"]
        attributes = [data[f"attribute_{i}"] for i in range(1, n + 1)]
        pools = [self.sheet.modified[key] for key in attributes]
        top = max(pools)
        caps = [pool if pool < top else None for pool in pools]
        mods = [data[f"dice_{i}"] for i in range(1, n + 1)]
        shares = checks.split_pool(top, n, caps)
        dice = checks.split_check_pools(top, n, mods, caps)
        rows = []
        for i in range(1, n + 1):
            difficulty = data[f"difficulty_{i}"] + self.difficulty_raise
            odds = checks.check_odds(dice[i - 1], difficulty)
            rows.append({
                "part": i, "action": data.get(f"action_{i}") or "",
                "attribute": attributes[i - 1], "name": ATTRIBUTE_NAMES[attributes[i - 1]],
                "share": shares[i - 1], "cap": caps[i - 1], "modifier": mods[i - 1],
                "dice": dice[i - 1], "difficulty": difficulty,
                "difficulty_raise": self.difficulty_raise, "odds": odds,
                "split_from": top, "shares": list(shares)})
        return rows

    def request(self, row: dict, key: str) -> CheckRequest:
        action = ACTION_BY_NAME.get(row["action"])
        what = f"{action.name}: {row['name']} vs {action.passive}" if action \
            else f"{row['name']} Check"
        what = tranquilized(what, row["difficulty_raise"])
        mod = row["modifier"]
        return CheckRequest(
            label=what[:200], attribute=row["attribute"], pool=row["share"],
            difficulty=row["difficulty"], difficulty_from=MettleRoll.DifficultyFrom.POOL,
            action=action.name if action else "", bonus=max(mod, 0), penalty=max(-mod, 0),
            split={"key": key, "part": row["part"], "of": len(row["shares"]),
                   "shares": row["shares"], "from": row["split_from"]})
