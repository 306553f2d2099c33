import * as migration_20261122_051202_initial from './20261122_051202_initial';
import * as migration_20261123_210000_description_html from './20261123_210000_description_html';
import * as migration_20261123_213119_recurrence from './20261123_213119_recurrence';
import * as migration_20261123_214542_recurrence_horizon_job from './20261123_214542_recurrence_horizon_job';
import * as migration_20261123_233003_change_feed from './20261123_233003_change_feed';
import * as migration_20261123_234518_login_throttle from './20261123_234518_login_throttle';
import * as migration_20261124_000141_scheduled_publishing from './20261124_000141_scheduled_publishing';
import * as migration_20261125_042042_session from './20261125_042042_session';
import * as migration_20261125_044854_import_sources from './20261125_044854_import_sources';
import * as migration_20261125_091257_drafts_autosave from './20261125_091257_drafts_autosave';
import * as migration_20261127_221421_import_fidelity from './20261127_221421_import_fidelity';
import * as migration_20261127_230201_feed_name_refresh from './20261127_230201_feed_name_refresh';
import * as migration_20261128_012225_schema_in_migrations from './20261128_012225_schema_in_migrations';
import * as migration_20261128_044920_writes_at_commit from './20261128_044920_writes_at_commit';
import * as migration_20261128_075629_series_updates_unpaired from './20261128_075629_series_updates_unpaired';

export const migrations = [
  {
    up: migration_20261122_051202_initial.up,
    down: migration_20261122_051202_initial.down,
    name: '20261122_051202_initial',
  },
  {
    up: migration_20261123_210000_description_html.up,
    down: migration_20261123_210000_description_html.down,
    name: '20261123_210000_description_html',
  },
  {
    up: migration_20261123_213119_recurrence.up,
    down: migration_20261123_213119_recurrence.down,
    name: '20261123_213119_recurrence',
  },
  {
    up: migration_20261123_214542_recurrence_horizon_job.up,
    down: migration_20261123_214542_recurrence_horizon_job.down,
    name: '20261123_214542_recurrence_horizon_job',
  },
  {
    up: migration_20261123_233003_change_feed.up,
    down: migration_20261123_233003_change_feed.down,
    name: '20261123_233003_change_feed',
  },
  {
    up: migration_20261123_234518_login_throttle.up,
    down: migration_20261123_234518_login_throttle.down,
    name: '20261123_234518_login_throttle',
  },
  {
    up: migration_20261124_000141_scheduled_publishing.up,
    down: migration_20261124_000141_scheduled_publishing.down,
    name: '20261124_000141_scheduled_publishing',
  },
  {
    up: migration_20261125_042042_session.up,
    down: migration_20261125_042042_session.down,
    name: '20261125_042042_session',
  },
  {
    up: migration_20261125_044854_import_sources.up,
    down: migration_20261125_044854_import_sources.down,
    name: '20261125_044854_import_sources',
  },
  {
    up: migration_20261125_091257_drafts_autosave.up,
    down: migration_20261125_091257_drafts_autosave.down,
    name: '20261125_091257_drafts_autosave',
  },
  {
    up: migration_20261127_221421_import_fidelity.up,
    down: migration_20261127_221421_import_fidelity.down,
    name: '20261127_221421_import_fidelity',
  },
  {
    up: migration_20261127_230201_feed_name_refresh.up,
    down: migration_20261127_230201_feed_name_refresh.down,
    name: '20261127_230201_feed_name_refresh',
  },
  {
    up: migration_20261128_012225_schema_in_migrations.up,
    down: migration_20261128_012225_schema_in_migrations.down,
    name: '20261128_012225_schema_in_migrations',
  },
  {
    up: migration_20261128_044920_writes_at_commit.up,
    down: migration_20261128_044920_writes_at_commit.down,
    name: '20261128_044920_writes_at_commit',
  },
  {
    up: migration_20261128_075629_series_updates_unpaired.up,
    down: migration_20261128_075629_series_updates_unpaired.down,
    name: '20261128_075629_series_updates_unpaired'
  },
];
