import * as migration_20261122_050106_initial from './20261122_050106_initial';

export const migrations = [
  {
    up: migration_20261122_050106_initial.up,
    down: migration_20261122_050106_initial.down,
    name: '20261122_050106_initial'
  },
];
