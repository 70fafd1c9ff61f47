import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { criteriaGroupList, exclusionCriteriaList, medicineList } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import * as service from './service.js';

const tags = ['study configuration'];

export const lookupRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/inclusion_criteria_group',
    {
      config: { access: 'lookups.read' },
      schema: {
        tags,
        summary: 'Inclusion criteria groups with their subgroups',
        response: { 200: criteriaGroupList },
      },
    },
    async () => ({ data: await service.criteriaGroups(db) }),
  );
  app.get(
    '/exclusion_criteria',
    {
      config: { access: 'lookups.read' },
      schema: { tags, summary: 'Exclusion criteria', response: { 200: exclusionCriteriaList } },
    },
    async () => ({ data: await service.exclusionCriteriaList(db) }),
  );
  app.get(
    '/medicine',
    {
      config: { access: 'lookups.read' },
      schema: {
        tags,
        summary: 'Medicines of the study (forms offer those with is_visible)',
        response: { 200: medicineList },
      },
    },
    async () => ({ data: await service.medicineList(db) }),
  );
};
