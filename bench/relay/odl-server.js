// offline-directline 1.3.1 as compare.js runs it, in a process of its own: `directline.initializeRoutes(app, port,
// botUrl)` on an Express app from its own install (BENCH_ODL_DIR: the directory holding node_modules/offline-directline,
// installed there by compare.js). Argument: port, bot URL. Answers 'cpu' with its process.cpuUsage().
'use strict';
const { join } = require('node:path');

const directory = process.env.BENCH_ODL_DIR;
const modules = join(directory, 'node_modules');
const express = require(join(modules, 'express'));
const directline = require(join(modules, 'offline-directline'));

const [port, botUrl] = process.argv.slice(2);
// Its per-conversation console.log lines are not part of the message path; keep them off the pipe.
console.log = () => undefined;
const app = express();
directline.initializeRoutes(app, Number(port), botUrl);
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'stop') process.exit(0);
});
