import { describeScaleOut } from './support/scale-out-scenario';

describeScaleOut('single', 'scale-out: two relay instances behind nginx, nothing lost');
