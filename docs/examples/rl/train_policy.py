"""Train a small policy on a pogdsl scenario with numpy alone, then measure it
against the random player.

The learner plays one side of a scenario through `pogdsl.env.gym_env`, the
other side played by a pogdsl player (`random` by default).  Its policy is a
network with one hidden layer that scores each legal option of a decision
from the side's observation vector and the option's own features
(`with_option_features=True`); a softmax over the options the action mask
allows gives the probabilities.  It is trained by REINFORCE with a running
baseline on the game's outcome (+1 a win, -1 a loss, 0 a draw), with Adam.

By default it trains on docs/examples/rl/toy-decisive.pog, the toy war with
a rising decided at the end (in the toy war itself every game is drawn, so
a win rate tells nothing), playing the Central Powers against random.

    python docs/examples/rl/train_policy.py                  # train, save, evaluate
    python docs/examples/rl/train_policy.py --iterations 5 --eval-games 20
    python docs/examples/rl/train_policy.py --load policy.npz --iterations 0

The same --seed gives the same training curve and the same weights; the
evaluation plays the same games (seeds --eval-seed, --eval-seed + 1, …) for
every policy it compares: the random player, the untrained policy and the
trained one, each with its win rate and 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

try:
    import numpy as np
except ImportError:
    raise SystemExit("error: this example needs numpy, which comes with the rl extra: pip install 'pogdsl[rl]'") \
        from None

HERE = Path(__file__).resolve().parent
DEFAULT_SCENARIO = HERE / "toy-decisive.pog"
DEFAULT_ROOT = HERE.parent / "toy"

# Training games and evaluation games never share a seed.
EVAL_SEED = 1_000_000


def squash(x: np.ndarray) -> np.ndarray:
    """The observation's numbers on a scale a small network takes: counts,
    positions and track values (up to the thousands) kept in order but
    compressed, one-hots unchanged."""
    return np.sign(x) * np.log1p(np.abs(x))


class OptionEncoder:
    """Each option's features (`pogdsl.env.options.option_features`: for each
    variable of the choice, the kind of entity it binds, its position in its
    kind or the number itself, and 1 when it binds nothing) as one-hots: the
    network then tells 'march to Paris' from 'march to Sedan' without
    reading a position as a quantity.  A row with nothing in it on a legal
    action is the page turn of a paged decision."""

    def __init__(self, world, option_width: int):
        from pogdsl.env.options import kinds

        self.slots = (option_width - 1) // 3
        self.kinds = max(kinds(world).values()) + 1
        self.positions = max(len(world.spaces), len(world.units), len(world.cards), len(world.nations),
                             len(world.sides) + len(world.hostile_sides)) + 1
        self.per_slot = self.kinds + self.positions + 2  # + "binds nothing" + a number
        self.size = 2 + self.slots * self.per_slot     # "is an option", "is the page turn"

    def encode(self, features: np.ndarray, legal: np.ndarray) -> np.ndarray:
        rows = np.zeros((len(legal), self.size), np.float32)
        for r, action in enumerate(legal):
            f = features[action]
            if f[0] == 0:
                rows[r, 1] = 1
                continue
            rows[r, 0] = 1
            for slot in range(self.slots):
                kind, pos, nothing = f[1 + 3 * slot: 4 + 3 * slot]
                base = 2 + slot * self.per_slot
                if kind > 0:
                    rows[r, base + min(int(kind), self.kinds - 1)] = 1
                    rows[r, base + self.kinds + min(int(pos), self.positions - 1)] = 1
                elif nothing:
                    rows[r, base + self.kinds + self.positions] = 1
                else:
                    rows[r, base + self.kinds + self.positions + 1] = squash(pos)
        return rows


class Policy:
    """logit(option) = w2 · tanh(W_obs · obs + W_opt · option + b1): one hidden
    layer over the observation and the option together, so what an option is
    worth can depend on the board."""

    def __init__(self, obs_size: int, opt_size: int, hidden: int, seed: int):
        rng = np.random.default_rng(seed)
        self.params = {
            "W_obs": rng.normal(0, 1 / np.sqrt(obs_size), (hidden, obs_size)),
            "W_opt": rng.normal(0, 1 / np.sqrt(opt_size), (hidden, opt_size)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 1 / np.sqrt(hidden), hidden),
        }
        self.adam = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.updates = 0

    def forward(self, obs: np.ndarray, options: np.ndarray):
        p = self.params
        hidden = np.tanh(p["W_obs"] @ obs + options @ p["W_opt"].T + p["b1"])
        logits = hidden @ p["w2"]
        probs = np.exp(logits - logits.max())
        return hidden, probs / probs.sum()

    def gradient(self, obs, options, action: int, advantage: float, grads: dict) -> None:
        """Add the gradient of ADVANTAGE × log π(ACTION) to GRADS."""
        hidden, probs = self.forward(obs, options)
        g_logits = -probs * advantage
        g_logits[action] += advantage
        grads["w2"] += g_logits @ hidden
        g_pre = np.outer(g_logits, self.params["w2"]) * (1 - hidden ** 2)
        grads["b1"] += g_pre.sum(axis=0)
        grads["W_obs"] += np.outer(g_pre.sum(axis=0), obs)
        grads["W_opt"] += g_pre.T @ options

    def ascend(self, grads: dict, lr: float, b1=0.9, b2=0.999, eps=1e-8) -> None:
        """One Adam step up GRADS."""
        self.updates += 1
        for k, g in grads.items():
            m, v = self.adam[k]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            m_hat = m / (1 - b1 ** self.updates)
            v_hat = v / (1 - b2 ** self.updates)
            self.params[k] += lr * m_hat / (np.sqrt(v_hat) + eps)

    def save(self, path: Path, meta: dict) -> None:
        try:
            np.savez(path, **self.params, **{f"meta_{k}": np.array(v) for k, v in meta.items()})
        except OSError as err:
            raise SystemExit(f"error: cannot save the weights to {path}: {err.strerror or err}") from None

    @classmethod
    def load(cls, path: Path, meta: dict) -> "Policy":
        try:
            data = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as err:
            raise SystemExit(f"error: cannot read weights from {path}: {err}") from None
        with data:
            saved = {k[5:]: data[k].item() for k in data.files if k.startswith("meta_")}
            if saved != meta:
                raise SystemExit(f"error: {path} holds weights for another game or shape: {saved}, not {meta}")
            params = {k: data[k] for k in ("W_obs", "W_opt", "b1", "w2")}
        policy = cls(meta["obs_size"], meta["opt_size"], meta["hidden"], 0)
        policy.params = {k: v.astype(float) for k, v in params.items()}
        return policy


class Learner:
    """The environment, the encoder and a policy, playing whole games."""

    def __init__(self, args):
        import pogdsl.env

        self.env = pogdsl.env.gym_env(str(args.scenario), root=args.root, side=args.side, opponent=args.opponent,
                                      with_option_features=True)
        width = self.env.observation_space["option_features"].shape[1]
        self.encoder = OptionEncoder(self.env.env.world, width)
        self.meta = {"scenario": self.env.env.world.scenario.key, "side": args.side,
                     "obs_size": int(self.env.observation_space["observation"].shape[0]),
                     "opt_size": self.encoder.size, "hidden": args.hidden}

    def new_policy(self, seed: int, hidden: int) -> Policy:
        return Policy(self.meta["obs_size"], self.meta["opt_size"], hidden, seed)

    def play(self, seed: int, choose) -> tuple[float, list]:
        """One game of seed SEED, the learner's actions given by CHOOSE(obs,
        options) → index among the legal actions; the outcome and the
        learner's decisions (those with more than one legal action)."""
        obs, _ = self.env.reset(seed=seed)
        steps, done, reward = [], False, 0.0
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            if len(legal) == 1:
                pick = 0
            else:
                x = squash(obs["observation"]).astype(float)
                options = self.encoder.encode(obs["option_features"], legal).astype(float)
                pick = choose(x, options)
                steps.append((x, options, pick))
            obs, reward, terminated, truncated, _ = self.env.step(int(legal[pick]))
            done = terminated or truncated
        return float(reward), steps


def train(learner: Learner, policy: Policy, args, out=None) -> list[float]:
    """REINFORCE: ITERATIONS batches of BATCH games, one update each; the
    curve of the batches' mean outcomes."""
    out = out or sys.stdout
    rng = np.random.default_rng([args.seed, 1])
    baseline, curve = 0.0, []
    for it in range(args.iterations):
        grads = {k: np.zeros_like(v) for k, v in policy.params.items()}
        outcomes = []
        for b in range(args.batch):
            game_seed = args.seed * 100_000 + it * args.batch + b
            reward, steps = learner.play(game_seed, lambda x, o: int(rng.choice(len(o), p=policy.forward(x, o)[1])))
            outcomes.append(reward)
            for x, options, pick in steps:
                policy.gradient(x, options, pick, reward - baseline, grads)
        policy.ascend({k: g / args.batch for k, g in grads.items()}, args.lr)
        mean = float(np.mean(outcomes))
        baseline = 0.9 * baseline + 0.1 * mean if it else mean
        curve.append(mean)
        if args.log_every and (it + 1) % args.log_every == 0:
            recent = curve[-args.log_every:]
            print(f"  iteration {it + 1:4d}: mean outcome of the last {len(recent) * args.batch} games "
                  f"{np.mean(recent):+.3f}", file=out, flush=True)
    return curve


def evaluate(learner: Learner, choose, games: int, first_seed: int) -> dict:
    """Play GAMES games of seeds FIRST_SEED, … with CHOOSE: wins, draws,
    losses, the win rate and its 95% Wilson interval."""
    from pogdsl.sim.stats import wilson

    results = [learner.play(first_seed + i, choose)[0] for i in range(games)]
    wins, losses = results.count(1.0), results.count(-1.0)
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "draws": games - wins - losses, "losses": losses,
            "rate": wins / games if games else 0.0, "low": low, "high": high}


def highest_scored(policy: Policy):
    """The policy played by its highest-scored option (as the evaluation plays it)."""
    return lambda x, options: int(np.argmax(policy.forward(x, options)[1]))


def uniform(seed: int):
    rng = np.random.default_rng([seed, 2])
    return lambda x, options: int(rng.integers(len(options)))


def report(name: str, r: dict) -> str:
    return (f"  {name:<18} {r['wins']:4d} wins, {r['draws']:3d} draws, {r['losses']:4d} losses of {r['games']}: "
            f"{100 * r['rate']:5.1f}% (95% CI {100 * r['low']:.1f} to {100 * r['high']:.1f}%)")


def parse(argv=None):
    ap = argparse.ArgumentParser(
        description="Train a small numpy policy (one hidden layer, REINFORCE) on one side of a pogdsl scenario "
                    "against a pogdsl player, save its weights (.npz), and compare its win rate with the random "
                    "player's and the untrained policy's over the same games.")
    ap.add_argument("--scenario", default=str(DEFAULT_SCENARIO),
                    help="a scenario name or .pog file (default: the toy war decided at the end, %(default)s)")
    ap.add_argument("--root", default=str(DEFAULT_ROOT), help="the project folder (default: the toy game's)")
    ap.add_argument("--side", default="cp", help="the side the policy plays (default: %(default)s)")
    ap.add_argument("--opponent", default="random", help="the other side's player, as `pogdsl play --ap` takes it "
                    "(default: %(default)s)")
    ap.add_argument("--seed", type=int, default=0, help="seeds the weights, the training games and the sampling "
                    "(default: %(default)s)")
    ap.add_argument("--iterations", type=int, default=150, help="policy updates (default: %(default)s; 0 with "
                    "--load evaluates only)")
    ap.add_argument("--batch", type=int, default=32, help="games per update (default: %(default)s)")
    ap.add_argument("--hidden", type=int, default=32, help="units of the hidden layer (default: %(default)s)")
    ap.add_argument("--lr", type=float, default=0.01, help="Adam's step size (default: %(default)s)")
    ap.add_argument("--eval-games", type=int, default=200, help="games of each evaluation (default: %(default)s)")
    ap.add_argument("--eval-seed", type=int, default=EVAL_SEED, help="the first evaluation game's seed "
                    "(default: %(default)s; training games never use these)")
    ap.add_argument("--out", default="policy.npz", help="where to save the trained weights (default: %(default)s)")
    ap.add_argument("--load", help="start from the weights in this .npz file instead of new ones")
    ap.add_argument("--log-every", type=int, default=10, help="print the curve every N iterations (0: never)")
    args = ap.parse_args(argv)
    for name in ("iterations", "batch", "eval_games", "log_every"):
        if getattr(args, name) < 0:
            ap.error(f"--{name.replace('_', '-')} must not be negative")
    if args.hidden < 1 or args.batch < 1:
        ap.error("--hidden and --batch must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse(argv)
    from pogdsl.env import EnvError

    try:
        learner = Learner(args)
    except EnvError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.load:
        policy = Policy.load(Path(args.load), learner.meta)
    else:
        policy = learner.new_policy(args.seed, args.hidden)
    untrained = Policy(policy.params["W_obs"].shape[1], policy.params["W_opt"].shape[1], args.hidden, 0)
    untrained.params = {k: v.copy() for k, v in policy.params.items()}

    print(f"{learner.meta['scenario']}: the policy plays {args.side} against {args.opponent}; "
          f"observation {learner.meta['obs_size']} numbers, options {learner.meta['opt_size']} numbers each")
    start = time.process_time()
    train(learner, policy, args)
    seconds = time.process_time() - start
    print(f"trained: {args.iterations} iterations of {args.batch} games in {seconds:.1f} CPU s")
    out = Path(args.out) if args.out.endswith(".npz") else Path(args.out + ".npz")  # (as numpy names it)
    policy.save(out, learner.meta)
    print(f"weights saved to {out}")

    if args.eval_games:
        print(f"evaluation: {args.eval_games} games each, seeds {args.eval_seed} to "
              f"{args.eval_seed + args.eval_games - 1}, {args.side} against {args.opponent}:")
        print(report("random player", evaluate(learner, uniform(args.seed), args.eval_games, args.eval_seed)))
        print(report("untrained policy", evaluate(learner, highest_scored(untrained), args.eval_games, args.eval_seed)))
        print(report("trained policy", evaluate(learner, highest_scored(policy), args.eval_games, args.eval_seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
