// About a minute of speech, as the clean-up leaves it.
export const CLEAN_NOTE = [
  "We moved our main database from MySQL to Postgres last week, and I want to write down what happened while it is fresh.",
  "The migration itself took four hours, and most of that was waiting for the replica to catch up, not the copy.",
  "Kubernetes made the rollout boring, which is exactly the point: we switched traffic over in two steps and nobody noticed.",
  "The one surprise was connection pooling. Postgres opens a process per connection, so our old pool of two hundred connections",
  "used far more memory than we expected, and we had to put PgBouncer in front of it on the second day.",
  "What I learned: test the pool size under real load before the switch, keep the old database running read-only for a week,",
  "and write the rollback plan down before you need it. Next I want to write up the pooling story properly,",
  "and send the report to the team before Friday so the other groups can plan their own moves.",
].join(" ");
